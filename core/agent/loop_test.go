package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
)

// at resolves a target on the trace's JSON form, as an expect entry does.
func at(t *testing.T, tr *Trace, path string) any {
	t.Helper()
	v, err := target.MustParse(path).Extract(traceJSON(t, tr))
	if err != nil {
		t.Fatalf("target %s: %v", path, err)
	}
	return v
}

func TestLoopCallsToolAndAnswers(t *testing.T) {
	tools := demoTools(t, "demo")
	m := &scripted{reply: func(n int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		if n == 0 {
			return calls("echo", `{"message":"hi there"}`), nil
		}
		return says("the server said: " + lastToolText(req)), nil
	}}
	tr, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"demo"}, Prompt: "echo hi there", System: "be brief"}, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"tool_calls[0].name":                     "echo",
		"tool_calls[0].server":                   "demo",
		"tool_calls[0].args.message":             "hi there",
		"tool_calls[0].hop_index":                float64(0),
		"tool_calls.length":                      nil, // checked below: a json.Number
		"tool_names[0]":                          "echo",
		"redundant_tool_calls":                   float64(0),
		"tool_results[0].isError":                false,
		"tool_results[0].result.isError":         false, // the demo server omits it
		"tool_results[0].server":                 "demo",
		"tool_results[0].result.content[0].text": "hi there",
		"final_response":                         "the server said: hi there",
		"conversation.tokens.prompt":             float64(17),
		"conversation.tokens.completion":         float64(8),
		"conversation.tokens.total":              float64(25),
		"conversation.message_count":             float64(4),
		"conversation.stop_reason":               "completed",
	}
	for path, w := range want {
		got := at(t, tr, path)
		if path == "tool_calls.length" {
			if got.(interface{ String() string }).String() != "1" {
				t.Errorf("%s = %v, want 1", path, got)
			}
			continue
		}
		if got != w {
			t.Errorf("%s = %#v, want %#v", path, got, w)
		}
	}
	if d := at(t, tr, "tool_calls[0].inputs_digest").(string); !strings.HasPrefix(d, "sha256:") {
		t.Errorf("inputs_digest = %q", d)
	}
	// The model saw the tools with their schemas and unprefixed names, and
	// the per-call max_tokens default.
	req := m.reqs[0]
	if req.MaxTokens != 1024 || req.System != "be brief" || len(req.Tools) == 0 {
		t.Fatalf("request = max_tokens %d system %q, %d tools", req.MaxTokens, req.System, len(req.Tools))
	}
	for _, d := range req.Tools {
		if strings.Contains(d.Name, "__") || len(d.InputSchema) == 0 {
			t.Fatalf("tool offered as %q schema %s", d.Name, d.InputSchema)
		}
	}
	if per := at(t, tr, "conversation.per_turn").([]any); len(per) != 0 {
		t.Errorf("per_turn on a single-prompt run = %v", per)
	}
}

func TestLoopMergesServersWithPrefixes(t *testing.T) {
	tools := demoTools(t, "alpha", "beta")
	m := &scripted{reply: func(n int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		switch n {
		case 0:
			return calls("beta__add", `{"a":2,"b":3}`), nil
		case 1:
			return calls("alpha__echo", `{"message":"x"}`), nil
		}
		return says("done"), nil
	}}
	tr, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"alpha", "beta"}, Prompt: "p"}, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range m.reqs[0].Tools {
		names[d.Name] = true
	}
	if !names["alpha__echo"] || !names["beta__echo"] || names["echo"] {
		t.Fatalf("offered tools = %v, want every name prefixed by its server", names)
	}
	for path, w := range map[string]any{
		"tool_calls[0].name": "add", "tool_calls[0].server": "beta", "tool_results[0].server": "beta",
		"tool_results[0].result.structuredContent.sum": float64(5),
		"tool_calls[1].name":                           "echo", "tool_calls[1].server": "alpha", "tool_calls[1].hop_index": float64(1),
	} {
		if got := at(t, tr, path); got != w {
			t.Errorf("%s = %#v, want %#v", path, got, w)
		}
	}
}

func TestLoopToolErrorsReachTheModel(t *testing.T) {
	tools := demoTools(t, "demo")
	var seen []string
	m := &scripted{reply: func(n int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		if n > 0 {
			seen = append(seen, lastToolText(req))
		}
		switch n {
		case 0:
			return calls("fail", `{}`), nil
		case 1:
			return calls("nosuch", `{}`), nil
		case 2:
			return calls("fail", `{}`), nil
		}
		return says("gave up"), nil
	}}
	tr, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p"}, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	if at(t, tr, "tool_results[0].isError") != true || at(t, tr, "tool_results[1].isError") != true {
		t.Fatal("an isError result and an unknown tool must both read isError true")
	}
	if at(t, tr, "tool_calls[1].server") != "" || !strings.Contains(at(t, tr, "tool_results[1].error").(string), "nosuch") {
		t.Fatalf("unknown tool: %v", traceJSON(t, tr)["tool_results"])
	}
	if !strings.Contains(seen[0], "something went wrong") || !strings.HasPrefix(seen[0], "Error") {
		t.Errorf("the model was told %q for an isError result", seen[0])
	}
	if at(t, tr, "redundant_tool_calls") != float64(1) {
		t.Errorf("redundant_tool_calls = %v, want 1 (fail {} twice)", at(t, tr, "redundant_tool_calls"))
	}
}

func TestLoopCaps(t *testing.T) {
	always := func() *scripted { return sequence(calls("echo", `{"message":"again"}`)) }
	cases := []struct {
		name string
		spec Spec
		stop string
		// calls is the number of tool calls made before the cap.
		calls int
	}{
		{"max_turns", Spec{MaxTurns: 3}, StopTurnBudget, 3},
		{"token_budget", Spec{TokenBudget: 40}, StopTokenBudget, 2},
		{"max_tool_calls", Spec{MaxToolCalls: 4}, StopToolCallBudget, 4},
		// The slow fault adds 400 ms of virtual time per call: the third
		// loop boundary is past one second.
		{"time_budget", Spec{TimeBudget: time.Second, Faults: faults(slowEcho(400))}, StopTimeBudget, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tools := demoTools(t, "demo")
			sp := c.spec
			sp.Model, sp.Servers, sp.Prompt = "m", []string{"demo"}, "loop forever"
			tr, err := Run(context.Background(), sp, always(), tools)
			if !errors.Is(err, ErrCap) {
				t.Fatalf("err = %v, want ErrCap", err)
			}
			if got := at(t, tr, "conversation.stop_reason"); got != c.stop {
				t.Fatalf("stop_reason = %v, want %s (%s)", got, c.stop, tr.Conversation.StopDetail)
			}
			if len(tr.ToolCalls) != c.calls {
				t.Errorf("%d tool calls, want %d", len(tr.ToolCalls), c.calls)
			}
			if tr.FinalResponse != "" || !strings.Contains(err.Error(), strings.Split(c.name, "_")[0]) {
				t.Errorf("final_response %q, error %v", tr.FinalResponse, err)
			}
		})
	}
}

func TestLoopModelFailureIsNotACap(t *testing.T) {
	tools := demoTools(t, "demo")
	m := &scripted{reply: func(int, sdk.ChatRequest) (sdk.ChatResponse, error) {
		return sdk.ChatResponse{}, errors.New("provider said 500")
	}}
	tr, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p"}, m, tools)
	if !errors.Is(err, ErrModel) || errors.Is(err, ErrCap) || tr.Conversation.StopReason != StopError {
		t.Fatalf("err = %v, stop %q", err, tr.Conversation.StopReason)
	}
}

func TestInputsDigestIsStable(t *testing.T) {
	run := func(prompt string) string {
		tools := demoTools(t, "demo")
		m := sequence(calls("echo", `{"message": "a"}`), says("ok"))
		tr, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"demo"}, Prompt: prompt}, m, tools)
		if err != nil {
			t.Fatal(err)
		}
		return tr.ToolCalls[0].InputsDigest
	}
	a, b, c := run("same"), run("same"), run("other")
	if a != b || a == c {
		t.Fatalf("digests %s %s %s: equal contexts must match, different ones differ", a, b, c)
	}
}

func TestSessionToolsObserveEveryRequest(t *testing.T) {
	tools := demoTools(t, "demo")
	var seen []string
	tools.Observe = func(server string, _ *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
		if err != nil || out == nil {
			t.Errorf("%s %s: %v", server, method, err)
		}
		seen = append(seen, server+" "+method+" "+string(params))
	}
	m := sequence(calls("echo", `{"message":"x"}`), says("ok"))
	if _, err := Run(context.Background(), Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p"}, m, tools); err != nil {
		t.Fatal(err)
	}
	want := []string{"demo tools/list ", `demo tools/call {"arguments":{"message":"x"},"name":"echo"}`}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("observed:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}
