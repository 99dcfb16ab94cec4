package pluginrpc

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

// decodeAny decodes b, failing the test when it is not valid JSON.
func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON %q: %v", b, err)
	}
	return v
}

// TestAppendFailureDecodesLikeMarshal holds the hand-written encoder to
// encoding/json: both must decode to the same value.
func TestAppendFailureDecodesLikeMarshal(t *testing.T) {
	cases := []contract.Failure{
		{},
		{Expected: json.RawMessage(`{"a":[1,2.5e3,"x"]}`), Actual: json.RawMessage(` "spaced" `)},
		{Diff: "- a\n+ b\t\"q\" \\ end", Path: "result.content[0]", Note: "ctl \x00\x01\x1f done"},
		{Note: "bad utf8 \xff\xfe and \u2028 \u2029 <b>&amp;</b> é 日本 🙂"},
		{Actual: json.RawMessage(`12345678901234567890`), Note: "big"},
		{Expected: json.RawMessage(`null`), Extra: map[string]any{"match": "x", "score": 0.5}},
	}
	for i, f := range cases {
		got, err := appendFailure(nil, &f, nil)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := decodeAny(t, got), decodeAny(t, want); !reflect.DeepEqual(g, w) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestAppendFailureRefusesBadRawValue: a matcher that puts something other
// than one JSON value in Expected or Actual gets an error, not a broken
// message the host would misread.
func TestAppendFailureRefusesBadRawValue(t *testing.T) {
	for _, raw := range []string{`{"a":`, `1 2`, `nope`} {
		_, err := appendFailure(nil, &contract.Failure{Actual: json.RawMessage(raw)}, nil)
		if !errors.Is(err, errBadFailureValue) {
			t.Errorf("Actual %q: err = %v, want errBadFailureValue", raw, err)
		}
	}
}

// TestAppendFailureTrustsOnlyTheItemsOwnBytes: a failure value that is the
// item's own actual value or argument is copied without a check, while an
// equal copy of bad JSON is still refused: the shortcut is by identity of
// the bytes, never by their content.
func TestAppendFailureTrustsOnlyTheItemsOwnBytes(t *testing.T) {
	in := &contract.MatchInput{Actual: json.RawMessage(`"tool text"`), Argument: json.RawMessage(`"expected"`)}
	got, err := appendFailure(nil, &contract.Failure{Expected: in.Argument, Actual: in.Actual}, in)
	if err != nil || string(got) != `{"expected":"expected","actual":"tool text"}` {
		t.Fatalf("got %s, %v", got, err)
	}
	bad := &contract.MatchInput{Actual: json.RawMessage(`{"a":`)}
	copied := append(json.RawMessage(nil), bad.Actual...)
	if _, err := appendFailure(nil, &contract.Failure{Actual: copied}, bad); !errors.Is(err, errBadFailureValue) {
		t.Errorf("a copy of the input's bytes was not checked: %v", err)
	}
	// A sub-slice of the input is not the input either.
	if _, err := appendFailure(nil, &contract.Failure{Actual: bad.Actual[:2]}, bad); !errors.Is(err, errBadFailureValue) {
		t.Errorf("a prefix of the input was not checked: %v", err)
	}
}

// FuzzAppendJSONString: every string encodes to JSON that decodes to what
// encoding/json's encoding of it decodes to.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\r\t\x00", "\xff", "\u2028", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendJSONString(nil, s)
		want, _ := json.Marshal(s)
		var g, w string
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("invalid JSON %q for %q: %v", got, s, err)
		}
		_ = json.Unmarshal(want, &w)
		if g != w {
			t.Fatalf("%q: got %q, want %q", s, g, w)
		}
	})
}
