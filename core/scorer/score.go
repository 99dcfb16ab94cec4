package scorer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/report"
)

// Input is what a scorer grades; it is written to the scorer as the JSON
// document {input, output, criteria, metadata}.
type Input struct {
	// Input is what the candidate answers: the eval's prompt.
	Input any `json:"input"`
	// Output is the candidate: the fixed response, or the agent's reply.
	Output any `json:"output"`
	// Criteria is the rubric as the suite states it (a string, or the
	// criteria list); nil when the eval has none.
	Criteria any `json:"criteria"`
	// Metadata is free context for the scorer (eval name, suite, model).
	Metadata map[string]any `json:"metadata"`

	// Candidate says what Output is ("response" or "agent"), for the
	// report; it is not sent.
	Candidate string `json:"-"`
	// Threshold is shown beside the score in reports; it is not sent, and
	// the scorer's own verdict decides the pass.
	Threshold float64 `json:"-"`
}

// Envelope is Input as the JSON document the scorer reads.
func (in Input) Envelope() ([]byte, error) {
	if in.Metadata == nil {
		in.Metadata = map[string]any{}
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encode scorer input: %w", err)
	}
	return b, nil
}

// CacheKey is the bytes a cached verdict of this grading is keyed on: the
// scorer's name and configuration (command, env, cwd, timeout) and the
// envelope. Two gradings with equal keys would send the scorer the same
// thing.
func (s *Scorer) CacheKey(in Input) ([]byte, error) {
	env, err := in.Envelope()
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Scorer   json.RawMessage `json:"scorer"`
		Envelope json.RawMessage `json:"envelope"`
	}{s.config, env})
}

// Score sends one grading to the scorer's plugin through host (which
// starts the plugin on first use) and returns the grade as a report.Eval
// of form "scorer" with one call. The scorer's verdict decides Passed;
// its score must lie in 0..1. Errors are the plugin's own (matching
// plugin.ErrScoreFailed: the grader exited non-zero, printed no JSON,
// timed out), a failed plugin (*plugin.PluginError), or ErrBadVerdict;
// secrets are masked in every message.
func (s *Scorer) Score(ctx context.Context, host *plugin.Host, in Input) (*report.Eval, error) {
	env, err := in.Envelope()
	if err != nil {
		return nil, err
	}
	res, err := host.Score(ctx, plugin.ScoreRequest{
		Plugin: s.Plugin, Key: s.Config.Type, Config: s.config, Envelope: env, Timeout: s.Timeout(),
	})
	if err != nil {
		return nil, &maskedError{msg: s.redactor.String(fmt.Sprintf("scorer %q: %v", s.Config.Name, err)), err: err}
	}
	ev, err := s.eval(res, in)
	if err != nil {
		return nil, &maskedError{msg: s.redactor.String(fmt.Sprintf("scorer %q: %v", s.Config.Name, err)), err: err}
	}
	return ev, nil
}

// eval checks the scorer's answer and builds the grade.
func (s *Scorer) eval(res contract.ScoreResult, in Input) (*report.Eval, error) {
	passed, err := verdict(res.Verdict)
	if err != nil {
		return nil, err
	}
	if res.Score == nil {
		return nil, fmt.Errorf("%w: no score", ErrBadVerdict)
	}
	score := *res.Score
	if math.IsNaN(score) || score < 0 || score > 1 {
		return nil, fmt.Errorf("%w: score %v is outside 0..1", ErrBadVerdict, score)
	}
	if c := res.CostUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0) || *c < 0) {
		return nil, fmt.Errorf("%w: cost_usd %v is not a non-negative amount", ErrBadVerdict, *c)
	}
	ev := &report.Eval{
		Form:      "scorer",
		Scorer:    s.Config.Name,
		Candidate: in.Candidate,
		Score:     score,
		Threshold: in.Threshold,
		Passed:    passed,
		Reason:    s.redactor.String(bound(res.Reasoning, maxReason)),
		Calls:     1,
		CostUSD:   res.CostUSD,
	}
	if p, ok := in.Input.(string); ok {
		ev.Prompt = s.redactor.String(bound(p, maxShown))
	}
	if o, ok := in.Output.(string); ok {
		ev.Response = s.redactor.String(bound(o, maxShown))
	}
	return ev, nil
}

// verdict reads the envelope's verdict: "pass" or "fail", in any case.
func verdict(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "pass":
		return true, nil
	case "fail":
		return false, nil
	case "":
		return false, fmt.Errorf("%w: no verdict (want \"pass\" or \"fail\")", ErrBadVerdict)
	}
	return false, fmt.Errorf("%w: verdict %q (want \"pass\" or \"fail\")", ErrBadVerdict, clip(v, 80))
}

// Bounds of what a grade shows: the prompt and candidate (the scorer saw
// them whole) and the scorer's reasoning, so one verbose grader cannot
// swell every report.
const (
	maxShown  = 16 << 10
	maxReason = 8 << 10
)

// bound cuts s to at most n bytes on a rune boundary, marking the cut.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// clip bounds a string the scorer chose for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// maskedError carries a message with secrets masked while keeping the
// cause reachable for errors.Is.
type maskedError struct {
	msg string
	err error
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.err }
