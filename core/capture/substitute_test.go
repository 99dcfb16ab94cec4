package capture

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
)

func TestSubstitute(t *testing.T) {
	vals := map[string]any{
		"obj": map[string]any{"id": json.Number("7"), "tags": []any{"a", "b"}},
		"arr": []any{json.Number("1"), "two"},
		"num": json.Number("42"),
		"str": "x<&>y",
		"nul": nil,
	}
	resolve := func(m []string) (any, error) {
		v, ok := vals[m[1]]
		if !ok {
			return nil, errors.New("no " + m[1])
		}
		return v, nil
	}
	cases := []struct{ in, want, err string }{
		{`{"a":"${capture:obj}"}`, `{"a":{"id":7,"tags":["a","b"]}}`, ""},
		{`{"a":["${capture:arr}", "${capture:num}"]}`, `{"a":[[1,"two"],42]}`, ""},
		{`{"a":"${capture:nul}"}`, `{"a":null}`, ""},
		{`{"a":"id ${capture:num}: ${capture:obj} / ${capture:str}"}`, `{"a":"id 42: {\"id\":7,\"tags\":[\"a\",\"b\"]} / x<&>y"}`, ""},
		{`{"deep":{"list":[{"v":"${capture:str}"}]}}`, `{"deep":{"list":[{"v":"x<&>y"}]}}`, ""},
		{`{"a":"${capture:nope}"}`, "", "no nope"},
		// No reference: the bytes are left exactly as they were.
		{`{"b": 1.50, "a": "plain"}`, `{"b": 1.50, "a": "plain"}`, ""},
		// A key that looks like a reference is a key.
		{`{"${capture:num}": 1}`, `{"${capture:num}": 1}`, ""},
	}
	for _, c := range cases {
		got, err := Substitute(json.RawMessage(c.in), plan.CaptureRef(), "${capture:", resolve)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.err)
			}
		case err != nil || string(got) != c.want:
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
	text, err := SubstituteText("demo://items/${capture:num}?q=${capture:obj}", plan.CaptureRef(), resolve)
	if err != nil || text != `demo://items/42?q={"id":7,"tags":["a","b"]}` {
		t.Errorf("text = %q, %v", text, err)
	}
}
