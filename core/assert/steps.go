package assert

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/tokens"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// The checks of the long form of expect judge the whole step rather than
// one target. Each becomes an entry of the test's assertions, after the
// expect entries, named by its field; each gates the test (it must pass
// whatever the threshold) and none counts in the combined score.

// Step is what the step checks judge: one call, or a whole list or
// composition treated as one.
type Step struct {
	// Result is what the server answered: the result object, or the
	// JSON-RPC error object.
	Result json.RawMessage
	// Duration is the wall-clock time of the call.
	Duration time.Duration
	// Cached marks an answer served from the result cache, to which the
	// duration budget does not apply: it would time the cache.
	Cached bool
	// Headers are the headers of the HTTP response; nil when the call had
	// none.
	Headers http.Header
}

// StepOf is the step of one call's outcome.
func StepOf(out *session.Outcome, cached bool) Step {
	s := Step{Result: out.Result, Duration: out.Duration, Cached: cached, Headers: out.Headers}
	if out.RPCError != nil {
		s.Result, _ = json.Marshal(out.RPCError)
	}
	return s
}

// stepChecks judges the long form of expect; first is the index of the
// first check (after the expect entries).
func stepChecks(eo *config.ExpectOptions, s Step, first int) []rpt.Assertion {
	if eo == nil {
		return nil
	}
	var out []rpt.Assertion
	add := func(a rpt.Assertion) {
		a.Index = first + len(out)
		out = append(out, a)
	}
	if eo.MaxDurationMS > 0 {
		add(checkDuration(eo.MaxDurationMS, s))
	}
	if eo.MaxResponseTokens != nil {
		add(checkTokens(eo.MaxResponseTokens, s.Result))
	}
	for _, h := range eo.ResponseHeaders {
		a := rpt.Assertion{Target: headerTarget(h.Name), Matcher: "response_headers"}
		if s.Headers == nil {
			a.Status, a.Error = rpt.StatusErrored, "the call got no HTTP response whose headers could be checked"
		} else {
			var err error
			a.Status, a.Failure, err = checkHeader(s.Headers, h)
			if err != nil {
				a.Error = err.Error()
			}
		}
		add(a)
	}
	for _, name := range eo.ResponseHeadersAbsent {
		a := rpt.Assertion{Target: headerTarget(name), Matcher: "response_headers_absent"}
		if s.Headers == nil {
			a.Status, a.Error = rpt.StatusErrored, "the call got no HTTP response whose headers could be checked"
		} else {
			a.Status, a.Failure = checkHeaderAbsent(s.Headers, name)
		}
		add(a)
	}
	return out
}

// ms is d in milliseconds, to the microsecond, as reports give durations.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// headerTarget names a header check's subject in reports.
func headerTarget(name string) string { return "headers." + strings.ToLower(name) }

// checkDuration judges max_duration_ms; a cache hit is skipped.
func checkDuration(budgetMS int, s Step) rpt.Assertion {
	a := rpt.Assertion{Target: "duration_ms", Matcher: "max_duration_ms"}
	took := ms(s.Duration)
	switch {
	case s.Cached:
		a.Status = rpt.StatusSkipped
		a.Failure, _ = json.Marshal(map[string]any{"expected": budgetMS,
			"note": "the answer came from the result cache; the duration budget applies to live calls only"})
	case took <= float64(budgetMS):
		a.Status = rpt.StatusPassed
	default:
		a.Status = rpt.StatusFailed
		a.Failure, _ = json.Marshal(map[string]any{"expected": budgetMS, "actual": took,
			"note": fmt.Sprintf("the call took %s ms, over the budget of %d ms", formatMS(took), budgetMS)})
	}
	return a
}

// checkTokens judges max_response_tokens.
func checkTokens(tb *config.TokenBudget, result json.RawMessage) rpt.Assertion {
	a := rpt.Assertion{Target: "result", Matcher: "max_response_tokens"}
	name := tokens.Normalize(tb.Tokenizer)
	c, err := tokens.Lookup(name)
	if err != nil {
		a.Status, a.Error = rpt.StatusErrored, err.Error()
		return a
	}
	mode := tb.Mode
	if mode == "" {
		mode = tokens.ModeText
	}
	cost := tokens.DefaultImageCost
	if tb.ImageCost != nil {
		cost = *tb.ImageCost
	}
	m, err := tokens.Measure(c, result, mode, cost)
	if err != nil {
		a.Status, a.Error = rpt.StatusErrored, err.Error()
		return a
	}
	if m.Tokens <= tb.Budget {
		a.Status = rpt.StatusPassed
		return a
	}
	f := map[string]any{"expected": tb.Budget, "actual": m.Tokens, "tokenizer": name, "mode": mode,
		"note": fmt.Sprintf("the response is %d tokens (%s, %s mode), over the budget of %d", m.Tokens, name, mode, tb.Budget)}
	if m.Images > 0 {
		f["images"] = m.Images
		f["image_cost"] = cost
	}
	a.Status = rpt.StatusFailed
	a.Failure, _ = json.Marshal(f)
	return a
}

// formatMS renders milliseconds with at most one decimal.
func formatMS(v float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0")
}
