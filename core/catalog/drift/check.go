package drift

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/mcptest/mcptest/core/catalog"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// BlockCanary is the report block of canary tests.
const BlockCanary = "drift"

// Check ids of drift findings.
const (
	CheckSchema    = "drift/schema"
	CheckBehaviour = "drift/behaviour"
)

// Options tune Check.
type Options struct {
	// AllowNonBreaking passes non-breaking schema changes instead of
	// failing them.
	AllowNonBreaking bool
	// Trim bounds the answers quoted in a failure, in bytes.
	Trim int
}

// Check compares a baseline with a current state. Schema changes are the
// tests of catalog.Diff, every change failing unless AllowNonBreaking
// passes the non-breaking ones; each baseline canary is one test,
// drift/canary/<name>, failed when its outcome, shape or masked content
// changed and errored when the current state lacks it.
func Check(baseline, current *State, opt Options) []rpt.Test {
	if opt.Trim <= 0 {
		opt.Trim = 2000
	}
	tests := catalog.Diff(baseline.Catalog, current.Catalog).Tests("current")
	for i := range tests {
		t := &tests[i]
		if t.Status == rpt.StatusPassed && !opt.AllowNonBreaking {
			c := &rpt.Check{ID: CheckSchema, Title: "the catalog changed since the baseline", Severity: "MUST"}
			t.Status, t.Check = rpt.StatusFailed, c
			for j := range t.Assertions {
				a := &t.Assertions[j]
				a.Status, a.Check = rpt.StatusFailed, c
				a.Failure, _ = json.Marshal(map[string]any{"expected": "the baseline catalog", "actual": a.Message,
					"note": "a non-breaking change; pass --allow-non-breaking to accept these"})
			}
		}
	}
	cur := map[string]CanaryResult{}
	for _, c := range current.Canaries {
		cur[c.Name] = c
	}
	names := make([]string, 0, len(baseline.Canaries))
	for _, b := range baseline.Canaries {
		names = append(names, b.Name)
	}
	sort.Strings(names)
	byName := map[string]CanaryResult{}
	for _, b := range baseline.Canaries {
		byName[b.Name] = b
	}
	for _, name := range names {
		b := byName[name]
		t := rpt.Test{ID: "drift/canary/" + name, Name: "canary " + name + " (" + b.Tool + ")", Block: BlockCanary, Server: "current", Tool: b.Tool}
		c, ok := cur[name]
		if !ok {
			t.Status = rpt.StatusErrored
			t.Error = &rpt.Error{Kind: "missing_canary", Message: "the current state has no canary " + name + "; capture it with the same spec"}
			tests = append(tests, t)
			continue
		}
		a := rpt.Assertion{Target: "tools/call " + b.Tool, Matcher: "drift"}
		// Compared by value: a saved state went through encoding/json,
		// which escapes <, > and & in it (the masks among them).
		same := b.Outcome == c.Outcome && bytes.Equal(canonicalJSON(b.Answer), canonicalJSON(c.Answer))
		if same {
			t.Status, a.Status = rpt.StatusPassed, rpt.StatusPassed
			a.Message = "same answer as the baseline (volatile fields masked)"
		} else {
			check := &rpt.Check{ID: CheckBehaviour, Title: "a canary call answers differently than in the baseline", Severity: "MUST"}
			t.Status, a.Status, t.Check, a.Check = rpt.StatusFailed, rpt.StatusFailed, check, check
			switch {
			case b.Outcome != c.Outcome:
				a.Message = "outcome changed from " + b.Outcome + " to " + c.Outcome
			case Shape(b.Answer) != Shape(c.Answer):
				a.Message = "the answer's shape changed (keys or value kinds)"
			default:
				a.Message = "the answer's content changed"
			}
			a.Failure, _ = json.Marshal(map[string]any{"expected": trim(b.Answer, opt.Trim), "actual": trim(c.Answer, opt.Trim), "note": a.Message})
		}
		t.Assertions = []rpt.Assertion{a}
		tests = append(tests, t)
	}
	return tests
}

// canonicalJSON re-encodes a value with sorted keys and no HTML
// escaping; raw that does not decode is returned compacted.
func canonicalJSON(raw json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return compactJSON(raw)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return compactJSON(raw)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// trim returns the answer as text, cut to n bytes.
func trim(raw json.RawMessage, n int) string {
	s := string(canonicalJSON(raw))
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func sortStrings(s []string) { sort.Strings(s) }
