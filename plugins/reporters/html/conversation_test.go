package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
)

// An agent test's page shows the conversation: the model and why the run
// stopped, each message in order, the tool calls an assistant message
// asked for and the result each tool message carried. Markup from the
// model or the server is text.
func TestAgentConversation(t *testing.T) {
	run := spanstest.AgentRun()
	page := renderRun(t, run)
	doc := parseHTML(t, page)
	conv := all(doc, byClass("conversation"))
	if len(conv) != 1 {
		t.Fatalf("%d conversation sections, want 1", len(conv))
	}
	meta := text(all(conv[0], byClass("meta"))[0])
	for _, want := range []string{"gpt-4o", "(openai)", "turn_budget (max_turns 2)", "150 tokens (120 prompt, 30 completion)", "0.42 US cents"} {
		if !strings.Contains(meta, want) {
			t.Errorf("conversation header %q lacks %q", meta, want)
		}
	}
	msgs := all(conv[0], byClass("message"))
	var roles []string
	for _, m := range msgs {
		roles = append(roles, text(all(m, byClass("role"))[0]))
	}
	if strings.Join(roles, " ") != "system user assistant tool tool assistant" {
		t.Errorf("message roles %v", roles)
	}
	// The assistant's two calls, with their arguments.
	calls := all(msgs[2], byClass("call"))
	if len(calls) != 2 || !strings.Contains(text(calls[0]), "demo/echo") || !strings.Contains(text(calls[0]), `"message": "Sacramento"`) {
		t.Errorf("assistant calls: %d, %q", len(calls), text(msgs[2]))
	}
	// The second tool message carries the failed result, marked as such.
	res := all(msgs[4], byClass("call-result"))
	if len(res) != 1 || !hasClass(res[0], "is-error") || !strings.Contains(text(res[0]), "isError") ||
		!strings.Contains(text(res[0]), "the tool failed: <b>boom</b>") {
		t.Errorf("tool result: %v", len(res))
	}
	if n := all(doc, byTag("b")); len(n) != 0 {
		t.Errorf("markup from the conversation became %d <b> elements", len(n))
	}
	if last := text(msgs[5]); !strings.Contains(last, "Still checking the <weather> & more.") {
		t.Errorf("last message reads %q", last)
	}
	checkIsland(t, doc, run)
}
