package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

// SimulatorDone is the answer with which a simulated user ends the
// conversation.
const SimulatorDone = "DONE"

// simulatorSystem instructs the model to play the user.
const simulatorSystem = `You are role-playing a user who talks to an AI assistant that can use tools.
Write only the user's next message, in the first person, with no preamble.
When the goal has been achieved, or clearly cannot be, reply with exactly DONE.`

// simulate asks the model, playing the user, for the next user message;
// done is true when it answered DONE. The simulator sees the goal, the
// persona and a transcript of the user and assistant messages so far (not
// the tool traffic, which a user does not see).
func (l *loop) simulate(ctx context.Context, turn int) (msg string, done bool, err error) {
	sim := l.spec.Simulate
	var b strings.Builder
	fmt.Fprintf(&b, "Your goal: %s\n", sim.Goal)
	if sim.Persona != "" {
		fmt.Fprintf(&b, "Your persona: %s\n", sim.Persona)
	}
	b.WriteString("\nConversation so far:\n")
	n := 0
	for _, m := range l.trace.Conversation.Messages {
		if m.Role == "tool" || m.Content == "" {
			continue
		}
		who := "USER"
		if m.Role == "assistant" {
			who = "ASSISTANT"
		}
		fmt.Fprintf(&b, "%s: %s\n", who, m.Content)
		n++
	}
	if n == 0 {
		b.WriteString("(nothing yet: write the opening message)\n")
	}
	b.WriteString("\nWrite the user's next message, or DONE.")
	req := sdk.ChatRequest{Model: l.spec.Model, System: simulatorSystem,
		Messages: []sdk.Message{{Role: "user", Content: b.String()}}, MaxTokens: l.spec.MaxTokens}
	start := time.Now()
	resp, err := l.model.Complete(ctx, req)
	if err != nil {
		return "", false, fmt.Errorf("%w: simulated user, model %s: %w", ErrModel, l.spec.Model, err)
	}
	l.trace.Conversation.Tokens.add(resp.Usage)
	out := resp.Message
	out.Role = "assistant"
	l.trace.ModelCalls = append(l.trace.ModelCalls, ModelCall{
		Role: RoleSimulator, Turn: turn, Request: &req, Output: out,
		StopReason: resp.StopReason, Usage: resp.Usage, DurationMS: ms(time.Since(start)),
	})
	text := strings.TrimSpace(resp.Message.Content)
	if text == "" || strings.EqualFold(strings.Trim(text, ".!\"'` "), SimulatorDone) {
		return "", true, nil
	}
	return text, false, nil
}
