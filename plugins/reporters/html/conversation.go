package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// agentView is an agent test's conversation: the model, why the run
// stopped and what it used, then each message in order with the tool calls
// an assistant message asked for and the results tool messages carried.
type agentView struct {
	Model, Family, Stop, Tokens, Cost, Duration string
	Replayed                                    bool
	System                                      string
	Messages                                    []messageView
	Omitted                                     string
}

// messageView is one message of the conversation.
type messageView struct {
	Role, Class, Content string
	Calls                []callView
	// Result is the tool call a tool message answers.
	Result *callView
}

// callView is one tool call, or the result of one.
type callView struct {
	Name, Server, Args, Result, Error, Duration string
	IsError, TimedOut                           bool
	Fault                                       string
}

// newAgentView builds the conversation of a trace. Every string is
// cleaned of control characters; html/template escapes the rest.
func newAgentView(a *report.Agent) *agentView {
	v := &agentView{Model: textsafe.Clean(a.Model), Family: textsafe.Clean(a.Family), Replayed: a.Replayed,
		System: textsafe.Clean(a.System), Duration: formatMS(a.DurationMS),
		Tokens: fmt.Sprintf("%d tokens (%d prompt, %d completion)", a.Tokens.Total, a.Tokens.Prompt, a.Tokens.Completion)}
	if a.Provider != "" {
		v.Model = textsafe.Clean(a.Provider) + "/" + v.Model
	}
	v.Stop = textsafe.Clean(a.StopReason)
	if a.StopDetail != "" {
		v.Stop += " (" + textsafe.Clean(a.StopDetail) + ")"
	}
	if a.CostUSDCents != nil {
		v.Cost = fmt.Sprintf("%.4g US cents", *a.CostUSDCents)
	}
	if o := a.Omitted; o != nil {
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{o.Messages, "messages"}, {o.ModelCalls, "model calls"}, {o.ToolCalls, "tool calls"}, {o.CutFields, "long texts cut"}} {
			if p.n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
			}
		}
		if len(parts) > 0 {
			v.Omitted = "The report's bounds left out " + strings.Join(parts, ", ") + "."
		}
	}
	byID := map[string]*report.AgentToolCall{}
	for i := range a.ToolCalls {
		if id := a.ToolCalls[i].ID; id != "" {
			byID[id] = &a.ToolCalls[i]
		}
	}
	next := 0 // tool calls are matched in order when they carry no id
	for _, m := range a.Messages {
		mv := messageView{Role: textsafe.Clean(m.Role), Class: "role-other", Content: textsafe.Clean(m.Content)}
		switch m.Role {
		case "user", "assistant", "tool", "system":
			mv.Class = "role-" + m.Role
		}
		for _, c := range m.ToolCalls {
			call := byID[c.ID]
			if call == nil && next < len(a.ToolCalls) {
				call = &a.ToolCalls[next]
			}
			next++
			cv := callView{Name: textsafe.Clean(c.Name), Args: prettyJSON(c.Arguments)}
			if call != nil {
				cv = newCallView(call)
			}
			mv.Calls = append(mv.Calls, cv)
		}
		if m.Role == "tool" {
			if call := byID[m.ToolCallID]; call != nil {
				cv := newCallView(call)
				mv.Result = &cv
			}
		}
		v.Messages = append(v.Messages, mv)
	}
	return v
}

// newCallView shows one tool call with its result.
func newCallView(c *report.AgentToolCall) callView {
	v := callView{Name: textsafe.Clean(c.Name), Server: textsafe.Clean(c.Server), Error: textsafe.Clean(c.Error),
		IsError: c.IsError, TimedOut: c.TimedOut, Fault: textsafe.Clean(c.Fault), Duration: formatMS(c.DurationMS)}
	if len(bytes.TrimSpace(c.Args)) > 0 {
		v.Args = prettyJSON(c.Args)
	}
	if r := bytes.TrimSpace(c.Result); len(r) > 0 && string(r) != "null" {
		v.Result = prettyJSON(json.RawMessage(r))
	}
	return v
}
