package pluginrpc

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

// TestAppendFailureExtraIsMarshalJSON: a failure with Extra is written
// byte for byte as Failure.MarshalJSON writes it (sorted keys, HTML
// escapes, compacted values), whether the direct writer takes it or hands
// it to MarshalJSON; and the direct writer takes the shapes the text
// matchers produce.
func TestAppendFailureExtraIsMarshalJSON(t *testing.T) {
	actual := json.RawMessage(`"Order #000123 shipped; ETA 2026-12-01"`)
	arg := json.RawMessage(`"^Order #\\d+ shipped$"`)
	in := &contract.MatchInput{Actual: actual, Argument: arg}
	cases := []struct {
		f    contract.Failure
		fast bool
	}{
		{contract.Failure{Expected: arg, Actual: actual, Extra: map[string]any{"match": nil}}, true},
		{contract.Failure{Expected: arg, Actual: actual, Note: "the actual value is an object", Extra: map[string]any{"match": nil}}, true},
		{contract.Failure{Expected: json.RawMessage(`"kitten"`), Actual: actual, Note: "edit distance 9 exceeds max 2", Extra: map[string]any{"max": 2, "distance": 9}}, true},
		{contract.Failure{Expected: json.RawMessage(`["a",1,null]`), Actual: actual, Note: "2 of 3 values not found", Extra: map[string]any{"missing": []any{"a", 1.5, nil, true}}}, true},
		{contract.Failure{Diff: "- a\n+ b\t\"q\" \\", Path: "x.y", Extra: map[string]any{"s": []string{"p", "q"}, "i": int64(-7), "f": 0.25, "z": -0.0, "b": false}}, true},
		// Handed to MarshalJSON, and still the same bytes.
		{contract.Failure{Actual: json.RawMessage(`{"a": 1}`), Extra: map[string]any{"k": 1}}, false},                                     // not compact
		{contract.Failure{Actual: json.RawMessage(`"<b>"`), Extra: map[string]any{"k": 1}}, false},                                        // HTML in a value
		{contract.Failure{Note: "a & b", Extra: map[string]any{"k": 1}}, false},                                                           // HTML in a string
		{contract.Failure{Note: "bell \b", Extra: map[string]any{"k": 1}}, false},                                                         // \b
		{contract.Failure{Actual: json.RawMessage("\"\u2028\""), Extra: map[string]any{"k": 1}}, false},                                   // U+2028
		{contract.Failure{Extra: map[string]any{"k": 1e21}}, false},                                                                       // exponent form
		{contract.Failure{Extra: map[string]any{"k": 1e-7}}, false},                                                                       // exponent form
		{contract.Failure{Extra: map[string]any{"k": map[string]any{"x": 1}}}, false},                                                     // a map
		{contract.Failure{Extra: map[string]any{"k": []any{[]any{1}}}}, false},                                                            // nested list
		{contract.Failure{Note: "n", Extra: map[string]any{"note": "other"}}, false},                                                      // a standard name
		{contract.Failure{Extra: map[string]any{"a<": 1}}, false},                                                                         // HTML in a key
		{contract.Failure{Expected: json.RawMessage(`"x"`), Actual: json.RawMessage(`"y"`), Extra: map[string]any{"k": uint8(3)}}, false}, // an unknown type
	}
	for i, c := range cases {
		want, err := c.f.MarshalJSON()
		if err != nil {
			t.Fatalf("case %d: MarshalJSON: %v", i, err)
		}
		got, err := appendFailure([]byte("prefix"), &c.f, in)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if string(got) != "prefix"+string(want) {
			t.Errorf("case %d:\n got %s\nwant prefix%s", i, got, want)
		}
		if _, fast := appendFailureExtra(nil, &c.f, in); fast != c.fast {
			t.Errorf("case %d: direct writer took it: %v, want %v", i, fast, c.fast)
		}
	}
	// What encoding/json refuses stays an error.
	bad := contract.Failure{Extra: map[string]any{"k": math.NaN()}}
	if _, err := appendFailure(nil, &bad, nil); err == nil {
		t.Error("a NaN in Extra was encoded")
	}
	invalid := contract.Failure{Actual: json.RawMessage(`{"a":`), Extra: map[string]any{"k": 1}}
	if _, err := appendFailure(nil, &invalid, nil); err == nil {
		t.Error("invalid JSON in Actual was encoded")
	}
}
