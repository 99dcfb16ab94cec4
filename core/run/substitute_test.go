package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

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
		got, _ := jsonx.Encode(output(&session.Outcome{Result: json.RawMessage(c.result)}))
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.result, got, c.want)
		}
	}
	got, _ := jsonx.Encode(output(&session.Outcome{RPCError: &session.RPCError{Code: -32602, Message: "bad", Data: json.RawMessage(`{"k":1}`)}}))
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
		got, _ := jsonx.Encode(v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s = %s (%v), want %s", c.ref, got, err, c.want)
		}
	}
	if _, err := res([]string{"${a.nope}", "a", "nope"}); err == nil || !strings.Contains(err.Error(), "${a.nope}") {
		t.Errorf("missing key: %v", err)
	}
}
