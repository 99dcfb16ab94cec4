package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// stderrLines is how many trailing lines of a server's stderr a diagnostic
// block keeps.
const stderrLines = 10

// firstFields are the common failure fields, shown first and in this
// order; the others follow in key order.
var firstFields = []string{"expected", "actual", "diff", "path", "note"}

// proseFields hold text meant to be read line by line.
var proseFields = map[string]bool{"diff": true, "note": true}

// diagnostics returns the YAML block of a failed, warned or errored test:
// what went wrong (message, severity), where the test is (at), and for
// failures and warnings the expected and actual values of the first failed
// assertion, then every failed or errored assertion in full, each naming
// its own compliance check when the test runs several. Passed and skipped
// tests have none.
func diagnostics(t *report.Test) []kv {
	var pairs []kv
	add := func(k string, v any) { pairs = append(pairs, kv{k, v}) }

	failed := failedAssertions(t)
	switch t.Status {
	case report.StatusFailed:
		add("message", failureMessage(t, failed))
		add("severity", "fail")
	case report.StatusWarned:
		add("message", failureMessage(t, failed))
		add("severity", "warning")
	case report.StatusErrored:
		add("message", errorMessage(t))
		add("severity", "error")
	default:
		// An unknown status is shown as not ok; say which it was.
		add("message", "test ended with status "+string(t.Status))
		add("severity", "error")
	}
	if at := location(t); at != "" {
		add("at", at)
	}
	if len(failed) > 0 {
		if fields := failureFields(failed[0].Failure); fields != nil {
			for _, k := range []string{"expected", "actual", "diff"} {
				if v, ok := fields[k]; ok {
					add(k, fieldValue(k, v))
				}
			}
		}
	}
	add("duration_ms", t.DurationMS)
	if t.Error != nil && t.Error.Kind != "" {
		add("error_kind", t.Error.Kind)
	}
	if t.Score != nil {
		add("score", *t.Score)
	}
	if t.Threshold != nil {
		add("threshold", *t.Threshold)
	}
	if t.Check != nil {
		add("check", checkPairs(t.Check))
	}
	if t.Eval != nil {
		add("eval", evalPairs(t.Eval))
	}
	if t.Server != "" {
		add("server", t.Server)
	}
	if t.Tool != "" {
		add("tool", t.Tool)
	}
	add("id", t.ID)
	if len(failed) > 0 {
		list := make([]any, len(failed))
		for i, a := range failed {
			list[i] = assertionMap(a)
		}
		add("assertions", list)
	}
	var deferred []any
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusDeferred {
			deferred = append(deferred, assertionMap(a))
		}
	}
	if len(deferred) > 0 {
		// Not judged for want of a model key: neither passed nor failed.
		add("deferred_assertions", deferred)
	}
	if tail := textsafe.Tail(textsafe.Clean(t.Stderr), stderrLines); tail != "" {
		add("stderr", prose(tail))
	}
	return pairs
}

// failedAssertions returns the assertions that failed or errored.
func failedAssertions(t *report.Test) []*report.Assertion {
	var out []*report.Assertion
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusFailed || a.Status == report.StatusErrored {
			out = append(out, a)
		}
	}
	return out
}

// failureMessage says why a test failed in one line: the first failed
// assertion's message, else the compliance check's title, else which
// matcher failed where.
func failureMessage(t *report.Test, failed []*report.Assertion) string {
	if len(failed) == 0 {
		if t.Eval != nil && !t.Eval.Passed {
			return evalMessage(t.Eval)
		}
		if t.Check != nil && t.Check.Title != "" {
			return t.Check.Title
		}
		return "test failed"
	}
	a := failed[0]
	switch {
	case a.Message != "":
		return a.Message
	case t.Check != nil && t.Check.Title != "":
		return t.Check.Title
	}
	return fmt.Sprintf("%s failed on %s", a.Matcher, a.Target)
}

// errorMessage says why a test could not be judged.
func errorMessage(t *report.Test) string {
	if t.Error != nil && t.Error.Message != "" {
		return t.Error.Message
	}
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusErrored && a.Error != "" {
			return a.Error
		}
	}
	return "test errored"
}

// location is the test's place in its suite as file:line.
func location(t *report.Test) string {
	switch {
	case t.File == "":
		return ""
	case t.Line > 0:
		return fmt.Sprintf("%s:%d", t.File, t.Line)
	}
	return t.File
}

// failureFields decodes a structured failure; nil when it is not an object.
func failureFields(raw json.RawMessage) map[string]json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil
	}
	return fields
}

// fieldValue is a failure field as written: prose fields that hold a
// string become readable text, everything else stays a JSON value.
func fieldValue(key string, v json.RawMessage) any {
	if proseFields[key] {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return prose(s)
		}
	}
	return v
}

// assertionMap is one failed or errored assertion.
func assertionMap(a *report.Assertion) []kv {
	pairs := []kv{{"index", a.Index}, {"target", a.Target}, {"matcher", a.Matcher}, {"status", string(a.Status)}}
	if a.Message != "" {
		pairs = append(pairs, kv{"message", a.Message})
	}
	if a.Score != nil {
		pairs = append(pairs, kv{"score", *a.Score})
	}
	if a.Error != "" {
		pairs = append(pairs, kv{"error", a.Error})
	}
	if a.Plugin != "" {
		pairs = append(pairs, kv{"plugin", a.Plugin})
	}
	if a.Check != nil {
		pairs = append(pairs, kv{"check", checkPairs(a.Check)})
	}
	if a.Eval != nil {
		pairs = append(pairs, kv{"eval", evalPairs(a.Eval)})
	}
	if len(bytes.TrimSpace(a.Failure)) > 0 {
		pairs = append(pairs, kv{"failure", failurePairs(a.Failure)})
	}
	return pairs
}

// failurePairs orders a structured failure like the pretty reporter does:
// the common fields first, the rest by key. A failure that is not an
// object is kept as the value it is.
func failurePairs(raw json.RawMessage) any {
	fields := failureFields(raw)
	if fields == nil {
		return raw
	}
	var pairs []kv
	for _, k := range firstFields {
		if v, ok := fields[k]; ok {
			pairs = append(pairs, kv{k, fieldValue(k, v)})
		}
	}
	var rest []string
	for k := range fields {
		if !slices.Contains(firstFields, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		pairs = append(pairs, kv{k, fields[k]})
	}
	return pairs
}

// checkPairs describes a compliance check.
func checkPairs(c *report.Check) []kv {
	pairs := []kv{{"id", c.ID}, {"title", c.Title}, {"level", c.Severity}}
	if c.Revision != "" {
		pairs = append(pairs, kv{"revision", c.Revision})
	}
	if c.Section != "" {
		pairs = append(pairs, kv{"section", c.Section})
	}
	return pairs
}
