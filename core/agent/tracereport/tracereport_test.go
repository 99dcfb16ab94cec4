package tracereport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

const secret = "sk-live-0123456789abcdef"

// tools is a two-tool catalogue: echo answers its message (with the
// secret appended when asked for "leak"), big answers 20 KiB, and fail
// answers isError.
type tools struct{}

func (tools) List(context.Context) ([]agent.Tool, error) {
	obj := json.RawMessage(`{"type":"object"}`)
	return []agent.Tool{{Server: "demo", Name: "echo", InputSchema: obj}, {Server: "demo", Name: "big", InputSchema: obj}, {Server: "demo", Name: "fail", InputSchema: obj}}, nil
}

func (tools) Call(_ context.Context, server, tool string, args json.RawMessage) (agent.CallResult, error) {
	text := func(s string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": s}}})
		return b
	}
	switch tool {
	case "echo":
		var a struct{ Message string }
		_ = json.Unmarshal(args, &a)
		if a.Message == "leak" {
			a.Message += " " + secret
		}
		return agent.CallResult{Result: text(a.Message)}, nil
	case "big":
		return agent.CallResult{Result: text(strings.Repeat("é", 10_000))}, nil
	case "fail":
		return agent.CallResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"nope"}],"isError":true}`), IsError: true}, nil
	}
	return agent.CallResult{}, errors.New("unknown tool")
}

// script asks for the tools in calls, one per model call, then answers.
type script struct {
	calls []sdk.ToolCall
	n     int
}

func (s *script) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	s.n++
	usd := 0.001
	u := sdk.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: &usd}
	if s.n <= len(s.calls) {
		c := s.calls[s.n-1]
		c.ID = fmt.Sprintf("call_%d", s.n)
		return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", ToolCalls: []sdk.ToolCall{c}}, StopReason: sdk.StopToolUse, Usage: u}, nil
	}
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: "done, token " + secret}, StopReason: sdk.StopEndTurn, Usage: u}, nil
}

func run(t *testing.T, calls ...sdk.ToolCall) *agent.Trace {
	t.Helper()
	spec := agent.Spec{Model: "gpt-4o", Servers: []string{"demo"}, System: "be brief", Prompt: "go", MaxTurns: 200}
	tr, err := agent.Run(context.Background(), spec, &script{calls: calls}, tools{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func call(name, args string) sdk.ToolCall {
	return sdk.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

func TestBuildKeepsTheRunMaskedAndBounded(t *testing.T) {
	tr := run(t, call("echo", `{"message":"leak"}`), call("big", `{}`), call("fail", `{}`))
	red := redact.New(secret)
	a := Build(tr, Options{Family: "openai", System: "be brief", Mask: red.String})
	b, _ := json.Marshal(a)
	if strings.Contains(string(b), secret) {
		t.Fatalf("the secret reached the report's trace:\n%s", b)
	}
	if a.Model != "gpt-4o" || a.Family != "openai" || a.System != "be brief" || a.StopReason != agent.StopCompleted ||
		a.Tokens.Total != 60 || a.CostUSDCents == nil || fmt.Sprintf("%.2f", *a.CostUSDCents) != "0.40" {
		t.Errorf("header: %+v", a)
	}
	if len(a.ModelCalls) != 4 || len(a.ToolCalls) != 3 || a.ModelCalls[1].Input != 3 || a.ModelCalls[0].Output.ToolCalls[0].Name != "echo" {
		t.Fatalf("calls: %d model, %d tool, inputs %+v", len(a.ModelCalls), len(a.ToolCalls), a.ModelCalls)
	}
	if tc := a.ToolCalls[2]; !tc.IsError || tc.Server != "demo" || tc.HopIndex != 2 || !strings.Contains(string(tc.Result), "nope") {
		t.Errorf("failed call: %+v", tc)
	}
	// The 20 KiB answer is cut to a JSON string under the field limit,
	// and counted.
	big := a.ToolCalls[1].Result
	var s string
	if json.Unmarshal(big, &s) != nil || len(s) > MaxFieldBytes+40 || !strings.HasSuffix(s, "bytes cut]") {
		t.Errorf("big result: %d bytes, %.60s", len(big), big)
	}
	if a.Omitted == nil || a.Omitted.CutFields < 2 { // the result and its tool message
		t.Errorf("omitted: %+v", a.Omitted)
	}
	if !json.Valid(b) {
		t.Error("the trace is not valid JSON")
	}
}

func TestLongRunsKeepTheirStartAndEnd(t *testing.T) {
	var calls []sdk.ToolCall
	for i := 0; i < 150; i++ {
		calls = append(calls, call("echo", fmt.Sprintf(`{"message":"m%d"}`, i)))
	}
	tr := run(t, calls...)
	a := Build(tr, Options{})
	if len(a.ToolCalls) != MaxItems || a.ToolCalls[0].HopIndex != 0 || a.ToolCalls[MaxItems-1].HopIndex != 149 {
		t.Errorf("tool calls: %d, hops %d..%d", len(a.ToolCalls), a.ToolCalls[0].HopIndex, a.ToolCalls[len(a.ToolCalls)-1].HopIndex)
	}
	if len(a.Messages) != MaxItems || len(a.ModelCalls) != MaxItems || a.Omitted == nil ||
		a.Omitted.ToolCalls != 50 || a.Omitted.ModelCalls != 51 || a.Omitted.Messages != len(tr.Conversation.Messages)-MaxItems {
		t.Errorf("bounds: %d messages, %d model calls, omitted %+v", len(a.Messages), len(a.ModelCalls), a.Omitted)
	}
	// The last model call's input, shifted over the dropped middle, ends
	// within the kept messages.
	last := a.ModelCalls[len(a.ModelCalls)-1]
	if last.Input > len(a.Messages) || last.Input < MaxItems/2 {
		t.Errorf("last call's input %d of %d kept messages", last.Input, len(a.Messages))
	}
}

// A run of many large values keeps 1 MiB of them at full length and cuts
// the rest short, so the trace stays near 2 MiB whatever the run did.
func TestWholeTraceIsBounded(t *testing.T) {
	var calls []sdk.ToolCall
	for i := 0; i < 150; i++ {
		calls = append(calls, call("big", `{}`))
	}
	a := Build(run(t, calls...), Options{})
	b, _ := json.Marshal(a)
	if len(b) > 2<<20 {
		t.Errorf("the trace is %d bytes", len(b))
	}
	last := a.ToolCalls[len(a.ToolCalls)-1].Result
	var s string
	if json.Unmarshal(last, &s) != nil || len(s) > MinFieldBytes+40 {
		t.Errorf("a value after the trace's budget keeps %d bytes", len(last))
	}
	if first := a.ToolCalls[0].Result; len(first) < MaxFieldBytes {
		t.Errorf("the first value keeps only %d bytes", len(first))
	}
}
