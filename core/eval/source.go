package eval

import (
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/sdk"
)

// tapedSource gives an eval's judge its models through the eval's tape:
// replayed from the cassette (no key needed, nothing sent) or recorded
// into it. Prices are the live source's either way, so a replay reports
// what the recorded calls would cost.
type tapedSource struct {
	live judge.ModelSource
	tape *Tape
	test string
}

// Model returns the judge model id: a replaying one when the tape plays
// (its key is never looked up), else the live one, recorded when the
// tape records.
func (s tapedSource) Model(id string) (judge.Model, error) {
	if s.tape != nil && s.tape.Player != nil {
		return s.tape.Model(s.test, id, nil), nil
	}
	m, err := s.live.Model(id)
	if err != nil {
		return nil, err
	}
	return s.tape.Model(s.test, id, m), nil
}

// Price is the live source's price of id.
func (s tapedSource) Price(id string) (sdk.ModelPrice, bool) {
	if s.live == nil {
		return sdk.ModelPrice{}, false
	}
	return s.live.Price(id)
}
