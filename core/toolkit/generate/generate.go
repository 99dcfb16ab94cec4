// Package generate writes a suite from a live server: one test per tool,
// with arguments built from its input schema and expectations taken from
// what the tool answered. Each tool is called twice and only what both
// answers agree on becomes an expectation, so the suite runs green at
// once and stays green on a server whose answers vary (times, ids).
package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/argsgen"
)

// Options tune generation.
type Options struct {
	// Jobs is how many calls are in flight at once.
	Jobs int
	// IncludeDestructive calls (and writes tests for) tools that may be
	// destructive too.
	IncludeDestructive bool
	// HasSecret reports whether a text holds a secret; such texts never
	// become expectations.
	HasSecret func(string) bool
}

// MaxExactText is the longest text an expectation repeats exactly; longer
// answers get shape expectations only, which keeps large or sensitive
// output (a server's environment) out of the suite.
const MaxExactText = 120

// Tests calls the tools and returns a test per tool that answered, and
// the tools left out with the reason.
func Tests(ctx context.Context, c *toolkit.Caller, tools []toolkit.Tool, opts Options) ([]toolkit.SuiteTest, []string, error) {
	var calls []toolkit.Call
	var called []toolkit.Tool
	var left []string
	for _, t := range tools {
		if t.MayBeDestructive() && !opts.IncludeDestructive {
			left = append(left, t.Name+" (may be destructive; --include-destructive)")
			continue
		}
		schema, err := argsgen.Parse(t.InputSchema)
		if err != nil {
			schema = argsgen.Schema{}
		}
		args, _ := json.Marshal(argsgen.Valid(schema))
		called = append(called, t)
		calls = append(calls, toolkit.Call{Tool: t.Name, Arguments: args})
	}
	first, err := c.CallAll(ctx, calls, opts.Jobs)
	if err != nil {
		return nil, nil, err
	}
	second, err := c.CallAll(ctx, calls, opts.Jobs)
	if err != nil {
		return nil, nil, err
	}
	var tests []toolkit.SuiteTest
	for i, t := range called {
		a, b := first[i], second[i]
		if a.Verdict.Health != toolkit.Healthy || a.Verdict.Kind != b.Verdict.Kind {
			left = append(left, fmt.Sprintf("%s (%s)", t.Name, a.Verdict.Kind))
			continue
		}
		st := toolkit.SuiteTest{Name: t.Name + " answers", Tool: t.Name, Arguments: calls[i].Arguments}
		if d := strings.TrimSpace(t.Description); d != "" {
			st.Comment = firstLine(d)
		}
		switch a.Verdict.Kind {
		case "invalid_params":
			st.Name = t.Name + " rejects generated arguments"
			st.Expect = []toolkit.Expectation{{Target: "error.code", Matcher: map[string]any{"exact": -32602}}}
		default:
			st.Expect = expectations(a.Outcome.Result, b.Outcome.Result, opts.HasSecret)
			if a.Verdict.Kind == "tool_error" {
				st.Name = t.Name + " reports an error for generated arguments"
			}
		}
		tests = append(tests, st)
	}
	return tests, left, nil
}

type result struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	} `json:"content"`
	StructuredContent map[string]json.RawMessage `json:"structuredContent"`
}

// expectations derives the checks both answers pass: isError, the number
// of content blocks, each block's type, a short text repeated exactly, and
// the structuredContent keys with equal values.
func expectations(rawA, rawB json.RawMessage, hasSecret func(string) bool) []toolkit.Expectation {
	if hasSecret == nil {
		hasSecret = func(string) bool { return false }
	}
	var a, b result
	_ = json.Unmarshal(rawA, &a)
	_ = json.Unmarshal(rawB, &b)
	out := []toolkit.Expectation{{Target: "result.isError", Matcher: map[string]any{"exact": a.IsError}}}
	if len(a.Content) != len(b.Content) {
		return out
	}
	out = append(out, toolkit.Expectation{Target: "result.content.length", Matcher: map[string]any{"exact": len(a.Content)}})
	for i := range a.Content {
		if i >= 3 {
			break
		}
		ca, cb := a.Content[i], b.Content[i]
		if ca.Type == cb.Type {
			out = append(out, toolkit.Expectation{Target: fmt.Sprintf("result.content[%d].type", i), Matcher: map[string]any{"exact": ca.Type}})
		}
		if ca.Text != nil && cb.Text != nil && *ca.Text == *cb.Text && len(*ca.Text) <= MaxExactText && !strings.ContainsAny(*ca.Text, "\x00") && !hasSecret(*ca.Text) {
			out = append(out, toolkit.Expectation{Target: fmt.Sprintf("result.content[%d].text", i), Matcher: map[string]any{"exact": *ca.Text}})
		}
	}
	keys := make([]string, 0, len(a.StructuredContent))
	for k, v := range a.StructuredContent {
		if w, ok := b.StructuredContent[k]; ok && bytes.Equal(v, w) && len(v) <= MaxExactText && isPlainKey(k) && !hasSecret(string(v)) {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		sub := map[string]any{}
		for _, k := range keys {
			sub[k] = json.RawMessage(a.StructuredContent[k])
		}
		out = append(out, toolkit.Expectation{Target: "result.structuredContent", Matcher: map[string]any{"contains": sub}})
	}
	return out
}

func isPlainKey(k string) bool {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return k != ""
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if len(l) > 100 {
		l = l[:100] + "…"
	}
	return l
}
