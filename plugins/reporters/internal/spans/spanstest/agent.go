package spanstest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// Allows reports whether key is an OpenInference span attribute: one of
// the package's keys, or a flattened list entry built from them, where
// each numeric segment is an index between two keys
// (llm.input_messages.0.message.tool_calls.1.tool_call.function.name).
func (c *Conventions) Allows(key string) bool {
	if c.Attributes[key] {
		return true
	}
	parts := strings.Split(key, ".")
	var run []string
	sawIndex := false
	for _, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			if len(run) == 0 || !c.Attributes[strings.Join(run, ".")] {
				return false
			}
			run, sawIndex = nil, true
			continue
		}
		run = append(run, p)
	}
	return sawIndex && len(run) > 0 && c.Attributes[strings.Join(run, ".")]
}

// AgentRun is a finished run with one failed agent test: two model calls
// (the first asking for two tools), a tool answering isError, a stop on
// the turn budget, a secret-free trace. Reporters test their agent views
// on it.
func AgentRun() *report.Run {
	start := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	cost := 0.42
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		RunID:         "20261125T100000Z-agent",
		Tool:          report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt:     start,
		FinishedAt:    start.Add(50 * time.Millisecond),
		DurationMS:    50,
		Suites:        []string{"agents.yml"},
		Tests: []report.Test{{
			ID: "agents.yml::agents::weather [gpt-4o]", Name: "weather [gpt-4o]", File: "agents.yml", Line: 12, Col: 5,
			Block: "agents", Server: "demo", Status: report.StatusFailed, DurationMS: 40,
			Assertions: []report.Assertion{{Index: 0, Target: "tool_calls[0].name", Matcher: "exact", Status: report.StatusFailed,
				Message: "the model should ask for the forecast first", Failure: json.RawMessage(`{"expected":"forecast","actual":"echo"}`)}},
			Agent: &report.Agent{
				Model: "gpt-4o", Family: "openai", Servers: []string{"demo"}, System: "You are a weather assistant.",
				StopReason: "turn_budget", StopDetail: "max_turns 2", Tokens: report.AgentTokens{Prompt: 120, Completion: 30, Total: 150},
				CostUSDCents: &cost, DurationMS: 30,
				Messages: []report.AgentMessage{
					{Role: "user", Content: "What is the weather in Sacramento?"},
					{Role: "assistant", Content: "Let me check.", ToolCalls: []report.AgentMessageToolCall{
						{ID: "call_1", Name: "echo", Arguments: json.RawMessage(`{"message":"Sacramento"}`)},
						{ID: "call_2", Name: "boom", Arguments: json.RawMessage(`{}`)}}},
					{Role: "tool", ToolCallID: "call_1", Content: "Sacramento"},
					{Role: "tool", ToolCallID: "call_2", Content: "the tool failed: <b>boom</b>"},
					{Role: "assistant", Content: "Still checking the <weather> & more."},
				},
				ModelCalls: []report.AgentModelCall{
					{Role: "agent", Turn: 0, Input: 1, StopReason: "tool_use", DurationMS: 10,
						Tokens: report.AgentTokens{Prompt: 50, Completion: 20, Total: 70},
						Output: report.AgentMessage{Role: "assistant", Content: "Let me check.", ToolCalls: []report.AgentMessageToolCall{
							{ID: "call_1", Name: "echo", Arguments: json.RawMessage(`{"message":"Sacramento"}`)},
							{ID: "call_2", Name: "boom", Arguments: json.RawMessage(`{}`)}}}},
					{Role: "agent", Turn: 0, Input: 4, StopReason: "end_turn", DurationMS: 12,
						Tokens: report.AgentTokens{Prompt: 70, Completion: 10, Total: 80},
						Output: report.AgentMessage{Role: "assistant", Content: "Still checking the <weather> & more."}},
				},
				ToolCalls: []report.AgentToolCall{
					{ID: "call_1", Name: "echo", Server: "demo", Args: json.RawMessage(`{"message":"Sacramento"}`), HopIndex: 0,
						Result: json.RawMessage(`{"content":[{"type":"text","text":"Sacramento"}]}`), DurationMS: 3},
					{ID: "call_2", Name: "boom", Server: "demo", Args: json.RawMessage(`{}`), HopIndex: 1, IsError: true,
						Result: json.RawMessage(`{"content":[{"type":"text","text":"the tool failed: <b>boom</b>"}],"isError":true}`), DurationMS: 2},
				},
			},
		}},
		ExitCode: 1,
	}
	run.Summarize()
	run.Summary.DurationMS = run.DurationMS
	return run
}
