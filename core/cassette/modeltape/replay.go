package modeltape

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/sdk"
	"github.com/pmezard/go-difflib/difflib"
)

// ErrMismatch is wrapped by the error of a replayed call whose request
// differs from the one recorded at the same position; the error carries a
// diff of the two.
var ErrMismatch = errors.New("the model request differs from the recording")

// ErrNoRecording is wrapped by the error of a replayed call the recording
// does not have: a run that was never recorded, or a call past the last
// recorded one.
var ErrNoRecording = errors.New("no recorded model exchange")

// maxDiffLines bounds the diff an ErrMismatch error carries: a changed
// system prompt in a long conversation must not put megabytes into the
// report.
const maxDiffLines = 60

// Player answers agent runs' model calls from a recorded section. It is
// safe for concurrent use.
type Player struct {
	sec   *Section
	scrub func([]byte) []byte
}

// NewPlayer plays sec back. scrub must be the redactor the recording was
// made with (the suite's): live requests are masked the same way before
// they are compared with the recorded ones.
func NewPlayer(sec *Section, scrub func([]byte) []byte) *Player {
	return &Player{sec: sec, scrub: scrub}
}

// Has reports whether the recording holds the run key.
func (p *Player) Has(key string) bool {
	if p == nil || p.sec == nil {
		return false
	}
	_, ok := p.sec.Runs[key]
	return ok
}

// Model returns the model that replays run key: its nth call is answered
// with the nth recorded answer after its request was checked against the
// nth recorded request. A key the recording does not have gives a model
// whose every call fails with ErrNoRecording.
func (p *Player) Model(key string) Model {
	var xs []Exchange
	if p != nil && p.sec != nil {
		xs = p.sec.Runs[key]
	}
	return &replaying{key: key, xs: xs, scrub: p.scrubber(), known: p.Has(key)}
}

func (p *Player) scrubber() func([]byte) []byte {
	if p == nil {
		return nil
	}
	return p.scrub
}

// replaying is a Model answered from a recording.
type replaying struct {
	key   string
	xs    []Exchange
	scrub func([]byte) []byte
	known bool

	mu   sync.Mutex
	next int
}

// Complete checks the request against the recording and answers from it.
func (m *replaying) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	if err := ctx.Err(); err != nil {
		return sdk.ChatResponse{}, err
	}
	m.mu.Lock()
	i := m.next
	m.next++
	m.mu.Unlock()
	if !m.known {
		return sdk.ChatResponse{}, fmt.Errorf("%w: the cassette has no run %q (record the suite again with `mcptest record`)", ErrNoRecording, m.key)
	}
	if i >= len(m.xs) {
		return sdk.ChatResponse{}, fmt.Errorf("%w: run %q recorded %d model calls, and the replay made call %d", ErrNoRecording, m.key, len(m.xs), i+1)
	}
	x := m.xs[i]
	got, err := requestJSON(req, m.scrub)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	want, err := jsonx.Canonical(x.Request)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("%w: run %q call %d: %w", ErrBadSection, m.key, i+1, err)
	}
	if !bytes.Equal(got, want) {
		return sdk.ChatResponse{}, fmt.Errorf("%w: run %q call %d:\n%s", ErrMismatch, m.key, i+1, diff(want, got))
	}
	if x.Error != "" {
		return sdk.ChatResponse{}, fmt.Errorf("recorded model error: %s", x.Error)
	}
	var resp sdk.ChatResponse
	if err := json.Unmarshal(x.Response, &resp); err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("%w: run %q call %d response: %w", ErrBadSection, m.key, i+1, err)
	}
	// Nothing was spent: the recorded usage stays (tokens are part of
	// what the run did), but its cost is zero, as for a cached answer,
	// not the recording's cost or the usage priced at today's price.
	zero := 0.0
	resp.Usage.CostUSD = &zero
	return resp, nil
}

// diff is a unified diff of two canonical requests, pretty-printed so a
// changed field is one line, cut to maxDiffLines.
func diff(recorded, live json.RawMessage) string {
	text := func(b json.RawMessage) []string {
		var out bytes.Buffer
		if json.Indent(&out, b, "", "  ") != nil {
			return difflib.SplitLines(string(b))
		}
		return difflib.SplitLines(out.String() + "\n")
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: text(recorded), B: text(live), FromFile: "recorded", ToFile: "replayed", Context: 2,
	})
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	if len(lines) > maxDiffLines {
		lines = append(lines[:maxDiffLines], fmt.Sprintf("... %d more lines of diff", len(lines)-maxDiffLines))
	}
	return strings.Join(lines, "\n")
}
