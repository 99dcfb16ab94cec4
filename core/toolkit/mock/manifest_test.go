package mock

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestParseErrorsAreLocated(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"unknown field", "tools:\n  - name: a\n    reslt: {}\n", "line 3"},
		{"duplicate tool", "tools:\n  - name: a\n  - name: a\n", "line 3: tools[1]: tool \"a\" is defined twice"},
		{"bad template", "tools:\n  - name: a\n    result: {text: \"{{.args\"}\n", "line 2: tools[0].result.text"},
		{"bad delay", "tools:\n  - name: a\n    delay: soon\n", "line 3: delay \"soon\""},
		{"result and error", "tools:\n  - name: a\n    error: x\n    result: {text: y}\n", "give result or error"},
		{"case without when", "tools:\n  - name: a\n    cases:\n      - result: {text: y}\n", "line 4: tools[0].cases[0]: when is required"},
		{"bad sequence template", "tools:\n  - name: a\n    sequence:\n      - {error: ok}\n      - {error: \"{{\"}\n", "line 5: tools[0].sequence[1].error"},
		{"bad role", "prompts:\n  - name: p\n    messages: [{role: system, text: x}]\n", "role \"system\""},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.yaml))
		if err == nil || !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrManifest containing %q", c.name, err, c.want)
		}
	}
}

func call(t *testing.T, h *toolHandler, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = h.tool.Name
	req.Params.Arguments = args
	return h.call(context.Background(), req)
}

func TestToolAnswers(t *testing.T) {
	m, err := Parse([]byte(`
tools:
  - name: greet
    result:
      text: "Hi {{.args.name}}{{.args.missing}}"
      structured: {n: "{{.args.n}}", list: ["{{upper .args.name}}"]}
    cases:
      - when: {n: 3}
        error: "three for {{.args.name}}"
  - name: seq
    sequence:
      - result: {text: one}
      - result: {text: two, is_error: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	greet := &toolHandler{tool: &m.Tools[0]}
	res, err := call(t, greet, map[string]any{"name": "Ada", "n": 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(mcp.TextContent).Text; got != "Hi Ada" {
		t.Errorf("text = %q", got)
	}
	sc := res.StructuredContent.(map[string]any)
	if sc["n"] != "2" || sc["list"].([]any)[0] != "ADA" {
		t.Errorf("structured = %v", sc)
	}
	if _, err := call(t, greet, map[string]any{"name": "Bo", "n": 3.0}); err == nil || err.Error() != "three for Bo" {
		t.Errorf("the case should answer with the templated error, got %v", err)
	}
	seq := &toolHandler{tool: &m.Tools[1]}
	var got []string
	for range 3 {
		res, err := call(t, seq, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Content[0].(mcp.TextContent).Text)
	}
	if strings.Join(got, ",") != "one,two,one" {
		t.Errorf("sequence answers = %v", got)
	}
}

func TestDelayStopsOnCancel(t *testing.T) {
	m, err := Parse([]byte("tools:\n  - name: slow\n    delay: 1h\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var req mcp.CallToolRequest
	if _, err := (&toolHandler{tool: &m.Tools[0]}).call(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call should stop waiting, got %v", err)
	}
}
