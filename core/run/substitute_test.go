package run

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
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
		got, err := substitute(json.RawMessage(c.in), plan.CaptureRef, "${capture:", resolve)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.err)
			}
		case err != nil || string(got) != c.want:
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
	text, err := substituteText("demo://items/${capture:num}?q=${capture:obj}", plan.CaptureRef, resolve)
	if err != nil || text != `demo://items/42?q={"id":7,"tags":["a","b"]}` {
		t.Errorf("text = %q, %v", text, err)
	}
}

func TestNodeOutput(t *testing.T) {
	cases := []struct{ result, want string }{
		{`{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}`, `{"sum":3}`},
		{`{"content":[{"type":"text","text":" {\"id\":42} "},{"type":"text","text":"more"}]}`, `{"id":42}`},
		{`{"content":[{"type":"text","text":"[1,2]"}]}`, `[1,2]`},
		{`{"content":[{"type":"text","text":"42"}]}`, `"42"`},
		{`{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b"}]}`, `"a\nb"`},
		{`{"content":[{"type":"text","text":"{not json"}]}`, `"{not json"`},
		{`{"content":[{"type":"image","data":"x","mimeType":"image/png"}]}`, `{"content":[{"type":"image","data":"x","mimeType":"image/png"}]}`},
		// The envelope holds what the server wrote: key order, literals.
		{`{"structuredContent":{"z":1.0, "a":[1e3]}}`, `{"z":1.0,"a":[1e3]}`},
	}
	output := func(out *session.Outcome) any {
		st := &nodeState{}
		st.output, st.raw = nodeOutput(out)
		return st.outputJSON()
	}
	for _, c := range cases {
		got, _ := encodeJSON(output(&session.Outcome{Result: json.RawMessage(c.result)}))
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.result, got, c.want)
		}
	}
	got, _ := encodeJSON(output(&session.Outcome{RPCError: &session.RPCError{Code: -32602, Message: "bad", Data: json.RawMessage(`{"k":1}`)}}))
	if string(got) != `{"code":-32602,"data":{"k":1},"message":"bad"}` {
		t.Errorf("rpc error output = %s", got)
	}
}

func TestNodeResolver(t *testing.T) {
	states := map[string]*nodeState{
		"a": {output: map[string]any{"top": map[string]any{"name": "mcp"}, "items": []any{"x", "y"}}},
		"b": {output: "plain text"},
		"c": {output: map[string]any{"output": "own key"}},
	}
	res := nodeResolver(states)
	cases := []struct{ ref, id, path, want string }{
		{"${a.top.name}", "a", "top.name", `"mcp"`},
		{"${a.items[-1]}", "a", "items[-1]", `"y"`},
		{"${a.output}", "a", "output", `{"items":["x","y"],"top":{"name":"mcp"}}`},
		{"${a.output.top}", "a", "output.top", `{"name":"mcp"}`},
		{"${b.output}", "b", "output", `"plain text"`},
		{"${c.output}", "c", "output", `"own key"`},
	}
	for _, c := range cases {
		v, err := res([]string{c.ref, c.id, c.path})
		got, _ := encodeJSON(v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s = %s (%v), want %s", c.ref, got, err, c.want)
		}
	}
	if _, err := res([]string{"${a.nope}", "a", "nope"}); err == nil || !strings.Contains(err.Error(), "${a.nope}") {
		t.Errorf("missing key: %v", err)
	}
}
