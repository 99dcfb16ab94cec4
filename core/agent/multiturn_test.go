package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

func TestScriptedTurns(t *testing.T) {
	tools := demoTools(t, "demo")
	// Each user turn: one echo of the user's words, then a reply.
	m := &scripted{reply: func(_ int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "user" {
			return calls("echo", `{"message":"`+last.Content+`"}`), nil
		}
		return says("echoed " + lastToolText(req)), nil
	}}
	sp := Spec{Model: "m", Servers: []string{"demo"}, Turns: []string{"first", "second"}}
	tr, err := Run(context.Background(), sp, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	for path, w := range map[string]any{
		"conversation.per_turn[0].user":                       "first",
		"conversation.per_turn[0].final_response":             "echoed first",
		"conversation.per_turn[1].user":                       "second",
		"conversation.per_turn[1].tool_calls[0].name":         "echo",
		"conversation.per_turn[1].tool_calls[0].hop_index":    float64(1),
		"conversation.per_turn[1].tool_results[0].call_index": float64(0),
		"conversation.per_turn[1].stop_reason":                "completed",
		"tool_results[1].call_index":                          float64(1),
		"final_response":                                      "echoed second",
		"conversation.message_count":                          float64(8),
	} {
		if got := at(t, tr, path); got != w {
			t.Errorf("%s = %#v, want %#v", path, got, w)
		}
	}
}

func TestSimulatedUser(t *testing.T) {
	tools := demoTools(t, "demo")
	var simulated int
	m := &scripted{reply: func(_ int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		if req.System == simulatorSystem {
			simulated++
			prompt := req.Messages[0].Content
			if !strings.Contains(prompt, "Your goal: greet twice") || !strings.Contains(prompt, "Your persona: terse") {
				t.Errorf("simulator prompt lacks goal or persona: %q", prompt)
			}
			if len(req.Tools) != 0 {
				t.Error("the simulated user must not see the tools")
			}
			if simulated == 3 {
				return says("DONE"), nil
			}
			return says("hello number " + string(rune('0'+simulated))), nil
		}
		return says("hi back"), nil
	}}
	sp := Spec{Model: "m", Servers: []string{"demo"}, Simulate: &config.Simulation{Goal: "greet twice", Persona: "terse"}}
	tr, err := Run(context.Background(), sp, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Conversation.PerTurn) != 2 || tr.Conversation.PerTurn[1].User != "hello number 2" {
		t.Fatalf("per_turn = %+v", tr.Conversation.PerTurn)
	}
	roles := map[string]int{}
	for _, c := range tr.ModelCalls {
		roles[c.Role]++
	}
	if roles[RoleSimulator] != 3 || roles[RoleAgent] != 2 {
		t.Fatalf("model calls by role = %v", roles)
	}
}

func TestSimulatedUserStopsAtMaxTurns(t *testing.T) {
	tools := demoTools(t, "demo")
	m := sequence(says("never done"))
	sp := Spec{Model: "m", Servers: []string{"demo"}, Simulate: &config.Simulation{Goal: "g"}}
	tr, err := Run(context.Background(), sp, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.Conversation.PerTurn); n != config.DefaultSimulateMaxTurns {
		t.Fatalf("%d turns, want the default max_turns %d", n, config.DefaultSimulateMaxTurns)
	}
}
