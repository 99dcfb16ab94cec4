package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/core/cassette/modeltape"
	"github.com/mcptest/mcptest/sdk"
)

// Tape records a judge's model calls into a cassette's model tape, or
// answers them from it. The agent loop keys a tape run by the test and
// replays its calls in order; a judge may send its calls in any order
// (criteria and jurors run concurrently, the verdict cache answers some),
// so each judge call is its own tape run, keyed by the eval and a digest
// of the request: the same request replays the same answer, whatever the
// order.
type Tape struct {
	// Player answers the calls when set (replay); Recorder records them
	// when set (mcptest record). At most one is set.
	Player   *modeltape.Player
	Recorder *modeltape.Recorder
	// Scrub masks a request before it is digested: the suite's redactor,
	// the same the tape was recorded with.
	Scrub func([]byte) []byte
}

// Model returns the judge model of the eval named test: next behind the
// tape (next is unused, and may be nil, when the tape replays).
func (t *Tape) Model(test string, model string, next modeltape.Model) modeltape.Model {
	if t == nil || (t.Player == nil && t.Recorder == nil) {
		return next
	}
	return &tapedJudge{tape: t, test: test, model: model, next: next}
}

type tapedJudge struct {
	tape        *Tape
	test, model string
	next        modeltape.Model
}

// Complete answers from, or records into, the tape run of this request.
func (m *tapedJudge) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	key, err := m.key(req)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	if m.tape.Player != nil {
		return m.tape.Player.Model(key).Complete(ctx, req)
	}
	return m.tape.Recorder.Wrap(m.next, key).Complete(ctx, req)
}

// key is the tape run of one judge call: "<test> [judge <model>] <digest>".
func (m *tapedJudge) key(req sdk.ChatRequest) (string, error) {
	req.Key = ""
	b, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("encode the judge request: %w", err)
	}
	if m.tape.Scrub != nil {
		b = m.tape.Scrub(b)
	}
	sum := sha256.Sum256(b)
	return modeltape.RunKey(m.test, "", "judge "+m.model, 0) + " " + hex.EncodeToString(sum[:6]), nil
}
