package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
)

// argumentFields are the names a call's arguments go by: "arguments" in
// MCP's tools/call and OpenAI's function calls, "args" in mcptest's own
// agent trace (tool_calls[i]), "input" in Anthropic's tool_use blocks.
var argumentFields = []string{"arguments", "args", "input"}

// toolCall is one call read from the value.
type toolCall struct {
	name string
	args map[string]any
	// argsAt is the JSON pointer of the arguments within the value.
	argsAt string
}

// callProblem is why a value is not a well-formed tool call, and where.
type callProblem struct {
	at, note string
}

// matchToolCall passes when the value is a well-formed tool call, or a
// non-empty list of them: an object with a non-empty string name and an
// arguments object, directly or under "function" (OpenAI's shape). The
// value may also be JSON text holding such a call, and the arguments may
// be JSON text holding the object, as OpenAI sends them. With a schema,
// every call's arguments must also match it.
func matchToolCall(ctx context.Context, f *family, actual json.RawMessage, opts options) (sdk.MatchResult, error) {
	if len(bytes.TrimSpace(actual)) == 0 {
		return sdk.MatchResult{}, errors.New("is-valid-tools-call: no actual value")
	}
	v, err := jsonvalue.Decode(actual)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("is-valid-tools-call: decode actual value: %w", err)
	}
	if text, ok := v.(string); ok {
		parsed, at, reason := parseJSONText(text)
		if reason != "" {
			r := parseFailure("JSON", text, positionAt(text, at), reason)
			r.Failure.Note = "the value is text that should hold a tool call, but it is " + r.Failure.Note
			return r, nil
		}
		v = parsed
	}
	calls := []any{v}
	prefix := func(int) string { return "" }
	if list, ok := v.([]any); ok {
		if len(list) == 0 {
			return callFailure(actual, callProblem{note: "the list of tool calls is empty"}), nil
		}
		calls = list
		prefix = func(i int) string { return "/" + strconv.Itoa(i) }
	}
	for i, c := range calls {
		call, problem := readCall(c, prefix(i))
		if problem != nil {
			return callFailure(actual, *problem), nil
		}
		if opts.schema == nil {
			continue
		}
		errs, err := f.validate(ctx, opts.schema, call.args)
		if err != nil {
			return sdk.MatchResult{}, err
		}
		if len(errs) > 0 {
			extra := schemaguard.FailureFields(errs)
			extra["tool"] = call.name
			return sdk.Fail(sdk.Failure{
				Actual: shownJSON(actual),
				Path:   call.argsAt,
				Note:   errorsNote(fmt.Sprintf("the arguments of the %q call do not match the schema", call.name), errs),
				Extra:  extra,
			}), nil
		}
	}
	return sdk.Pass(), nil
}

// readCall reads one tool call found at the JSON pointer at.
func readCall(v any, at string) (toolCall, *callProblem) {
	obj, ok := v.(map[string]any)
	if !ok {
		return toolCall{}, &callProblem{at, "a tool call must be an object with a name and arguments, got " + jsonvalue.Describe(v)}
	}
	if fn, ok := obj["function"]; ok {
		if obj, ok = fn.(map[string]any); !ok {
			return toolCall{}, &callProblem{at + "/function", `"function" must be an object with a name and arguments, got ` + jsonvalue.Describe(fn)}
		}
		at += "/function"
	}
	name, problem := readName(obj, at)
	if problem != nil {
		return toolCall{}, problem
	}
	var present []string
	for _, f := range argumentFields {
		if _, ok := obj[f]; ok {
			present = append(present, f)
		}
	}
	switch len(present) {
	case 0:
		return toolCall{}, &callProblem{at, fmt.Sprintf(`the %q call has no arguments: expected an "arguments" object ({} for a tool that takes none)`, name)}
	case 1:
	default:
		return toolCall{}, &callProblem{at, fmt.Sprintf("the %q call has both %q and %q; a call carries its arguments once", name, present[0], present[1])}
	}
	field := present[0]
	argsAt := at + "/" + field
	args := obj[field]
	if text, ok := args.(string); ok {
		parsed, off, reason := parseJSONText(text)
		if reason != "" {
			return toolCall{}, &callProblem{argsAt, fmt.Sprintf("%q is text that is not valid JSON at %s: %s", field, positionAt(text, off), reason)}
		}
		args = parsed
	}
	m, ok := args.(map[string]any)
	if !ok {
		return toolCall{}, &callProblem{argsAt, fmt.Sprintf("%q must be an object, got %s", field, jsonvalue.Describe(args))}
	}
	return toolCall{name: name, args: m, argsAt: argsAt}, nil
}

// readName reads a call's name, which must be a non-empty string.
func readName(obj map[string]any, at string) (string, *callProblem) {
	raw, ok := obj["name"]
	if !ok {
		return "", &callProblem{at, `a tool call must have a "name"`}
	}
	name, ok := raw.(string)
	if !ok {
		return "", &callProblem{at + "/name", `"name" must be a string, got ` + jsonvalue.Describe(raw)}
	}
	if strings.TrimSpace(name) == "" {
		return "", &callProblem{at + "/name", `"name" is empty`}
	}
	return name, nil
}

// callFailure is the failure for a value that is not a tool call.
func callFailure(actual json.RawMessage, p callProblem) sdk.MatchResult {
	return sdk.Fail(sdk.Failure{Actual: shownJSON(actual), Path: p.at, Note: p.note})
}
