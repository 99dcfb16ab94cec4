package spans_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/report"
)

// An agent test's span has an AGENT child for the loop, and under it an
// LLM span per model call with each reply's tool calls as TOOL spans
// right after it.
func TestAgentSpanTree(t *testing.T) {
	tree := spans.Build(spanstest.AgentRun())
	var names, kinds []string
	for _, sp := range tree {
		names = append(names, sp.Name)
		kinds = append(kinds, sp.Kind)
	}
	want := "mcptest.run mcptest.test mcptest.agent mcptest.llm mcptest.tool mcptest.tool mcptest.llm"
	if strings.Join(names, " ") != want || strings.Join(kinds, " ") != "CHAIN CHAIN AGENT LLM TOOL TOOL LLM" {
		t.Fatalf("tree %v %v, want %s", names, kinds, want)
	}
	test, agent := tree[1], tree[2]
	if agent.ParentSpanID != test.SpanID {
		t.Errorf("agent span's parent %s, want the test %s", agent.ParentSpanID, test.SpanID)
	}
	for _, sp := range tree[3:] {
		if sp.ParentSpanID != agent.SpanID {
			t.Errorf("%s's parent %s, want the agent span", sp.Name, sp.ParentSpanID)
		}
	}
	// The loop stopped on a cap: the agent span says so.
	if agent.StatusCode != spans.StatusError || !strings.Contains(agent.StatusMessage, "turn_budget: max_turns 2") {
		t.Errorf("agent span status %s %q", agent.StatusCode, agent.StatusMessage)
	}
	a := agent.Attributes
	for k, v := range map[string]any{
		"agent.name": "weather [gpt-4o]", "llm.model_name": "gpt-4o", "llm.provider": "openai",
		"llm.token_count.prompt": 120, "llm.token_count.completion": 30, "llm.token_count.total": 150,
		"input.value": "What is the weather in Sacramento?", "output.value": "", "mcptest.agent.cost_usd_cents": 0.42,
		"mcptest.agent.stop_reason": "turn_budget", "mcptest.agent.tool_calls": 2,
	} {
		if k == "output.value" {
			continue // the fixture's run has no final response
		}
		if a[k] != v {
			t.Errorf("agent %s = %#v, want %#v", k, a[k], v)
		}
	}
	// Re-exporting gives the same ids.
	again := spans.Build(spanstest.AgentRun())
	for i := range tree {
		if tree[i].SpanID != again[i].SpanID {
			t.Errorf("span %d: id %s then %s", i, tree[i].SpanID, again[i].SpanID)
		}
	}
}

// Model calls carry the conversation they sent and the reply, flattened
// as OpenInference lists, with model, provider and token counts.
func TestLLMSpanAttributes(t *testing.T) {
	tree := spans.Build(spanstest.AgentRun())
	first, second := tree[3].Attributes, tree[6].Attributes
	for k, v := range map[string]any{
		"llm.model_name": "gpt-4o", "llm.provider": "openai", "llm.finish_reason": "tool_use",
		"llm.token_count.prompt": 50, "llm.token_count.completion": 20, "llm.token_count.total": 70,
		"llm.input_messages.0.message.role": "system", "llm.input_messages.0.message.content": "You are a weather assistant.",
		"llm.input_messages.1.message.role": "user", "llm.input_messages.1.message.content": "What is the weather in Sacramento?",
		"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Let me check.",
		"llm.output_messages.0.message.tool_calls.0.tool_call.id":                 "call_1",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.name":      "echo",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": `{"message":"Sacramento"}`,
		"llm.output_messages.0.message.tool_calls.1.tool_call.function.name":      "boom",
	} {
		if first[k] != v {
			t.Errorf("first call %s = %#v, want %#v", k, first[k], v)
		}
	}
	if _, ok := first["llm.input_messages.2.message.role"]; ok {
		t.Error("the first call lists more input than it sent")
	}
	// The second call sent the system prompt and four messages, the tool
	// answers among them.
	for k, v := range map[string]any{
		"llm.input_messages.4.message.role": "tool", "llm.input_messages.4.message.tool_call_id": "call_2",
		"llm.input_messages.2.message.tool_calls.1.tool_call.function.name": "boom",
		"llm.output_messages.0.message.content":                             "Still checking the <weather> & more.",
	} {
		if second[k] != v {
			t.Errorf("second call %s = %#v, want %#v", k, second[k], v)
		}
	}
	if _, ok := second["llm.input_messages.5.message.role"]; ok {
		t.Error("the second call lists its own reply as input")
	}
}

// Tool spans name the tool and its parameters; a result flagged isError
// is an ERROR span.
func TestToolSpanAttributes(t *testing.T) {
	tree := spans.Build(spanstest.AgentRun())
	echo, boom := tree[4], tree[5]
	if echo.StatusCode != spans.StatusOK || echo.Attributes["tool.name"] != "echo" ||
		echo.Attributes["tool.parameters"] != `{"message":"Sacramento"}` || echo.Attributes["mcptest.tool.server"] != "demo" ||
		echo.Attributes["output.value"] != `{"content":[{"type":"text","text":"Sacramento"}]}` || echo.Attributes["output.mime_type"] != spans.MimeJSON {
		t.Errorf("echo span: %s %v", echo.StatusCode, echo.Attributes)
	}
	if boom.StatusCode != spans.StatusError || !strings.Contains(boom.StatusMessage, "isError") || boom.Attributes["mcptest.tool.is_error"] != true {
		t.Errorf("boom span: %s %q %v", boom.StatusCode, boom.StatusMessage, boom.Attributes)
	}
}

// A run whose durations (virtual time of injected faults) exceed its
// test's is scaled to fit inside the test span; duration_ms keeps the
// trace's figures.
func TestAgentSpansFitTheirTest(t *testing.T) {
	run := spanstest.AgentRun()
	a := run.Tests[0].Agent
	a.DurationMS = 60_000
	a.ToolCalls[1].DurationMS, a.ToolCalls[1].TimedOut = 30_000, true
	tree := spans.Build(run)
	test := tree[1]
	at := test.StartUnixNano
	for _, sp := range tree[2:] {
		if sp.StartUnixNano < test.StartUnixNano || sp.EndUnixNano > test.EndUnixNano {
			t.Errorf("%s %d..%d outside the test %d..%d", sp.Name, sp.StartUnixNano, sp.EndUnixNano, test.StartUnixNano, test.EndUnixNano)
		}
		if sp.Name != spans.NameAgent {
			if sp.StartUnixNano < at {
				t.Errorf("%s starts at %d, before the previous call ended (%d)", sp.Name, sp.StartUnixNano, at)
			}
			at = sp.EndUnixNano
		}
	}
	if tree[2].DurationMS != 60_000 || tree[5].DurationMS != 30_000 || !strings.Contains(tree[5].StatusMessage, "timed out") {
		t.Errorf("durations %g %g, status %q", tree[2].DurationMS, tree[5].DurationMS, tree[5].StatusMessage)
	}
}

// A long conversation lists only its latest input messages on each model
// call, and says how many it left out.
func TestLLMSpanInputIsBounded(t *testing.T) {
	run := spanstest.AgentRun()
	a := run.Tests[0].Agent
	for i := 0; i < 40; i++ {
		a.Messages = append(a.Messages, report.AgentMessage{Role: "user", Content: fmt.Sprintf("m%d", i)})
	}
	a.ModelCalls[1].Input = len(a.Messages)
	a.Messages[0].Content = strings.Repeat("x", 10_000)
	got := spans.Build(run)[6].Attributes
	n := 0
	for k := range got {
		if strings.HasPrefix(k, "llm.input_messages.") && strings.HasSuffix(k, ".message.role") {
			n++
		}
	}
	if n != 16 || got["mcptest.llm.input_messages_omitted"] != 46-16 || got["llm.input_messages.15.message.content"] != "m39" {
		t.Errorf("%d input messages listed, omitted %v, last %v", n, got["mcptest.llm.input_messages_omitted"], got["llm.input_messages.15.message.content"])
	}
	first := spans.Build(run)[3].Attributes["llm.input_messages.1.message.content"].(string)
	if len(first) > 4200 || !strings.HasSuffix(first, "bytes cut]") {
		t.Errorf("a long message is %d bytes on the span: %q", len(first), first[len(first)-20:])
	}
}

// The conventions check accepts flattened lists of convention keys and
// nothing else.
func TestConventionsAllowFlattenedLists(t *testing.T) {
	conv := spanstest.LoadConventions(t)
	for key, want := range map[string]bool{
		"llm.input_messages.0.message.role":                                  true,
		"llm.output_messages.3.message.tool_calls.1.tool_call.function.name": true,
		"llm.model_name":                  true,
		"llm.input_messages.0.bogus":      false,
		"llm.bogus.0.message.role":        false,
		"llm.input_messages.0":            false,
		"llm.model_name.0.message.role.x": false,
		"message.role":                    true,
	} {
		if got := conv.Allows(key); got != want {
			t.Errorf("Allows(%q) = %v, want %v", key, got, want)
		}
	}
}
