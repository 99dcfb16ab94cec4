package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// stepsShown is how many steps of a failed agent run's trajectory are
// shown: the first and last halves, with a count of the steps between.
// The JSON report keeps the whole (bounded) trace.
const stepsShown = 24

// maxStepRunes caps one step's text: a trajectory is an overview.
const maxStepRunes = 160

// step is one line of a trajectory: a message or a tool call.
type step struct {
	who  string // user, assistant, tool call
	text string
	mark string // ✓ or ✗ for a tool call's outcome
	st   style
}

// writeTrajectory writes what the model did in a failed agent test: the
// model and why the run stopped, then the user's messages, the model's
// replies and each tool call with its outcome, in order.
func (r *renderer) writeTrajectory(b *strings.Builder, ind string, a *report.Agent) {
	head := "trajectory (" + modelName(a)
	if a.Replayed {
		head += ", replayed"
	}
	if a.StopReason != "" {
		head += ", stopped: " + a.StopReason
		if a.StopDetail != "" {
			head += " (" + a.StopDetail + ")"
		}
	}
	head += fmt.Sprintf(", %d tokens", a.Tokens.Total)
	if a.CostUSDCents != nil {
		head += fmt.Sprintf(", %.2f¢", *a.CostUSDCents)
	}
	b.WriteString(ind + r.p.line(dim, head+"):") + "\n")

	steps := trajectory(a)
	if len(steps) == 0 {
		b.WriteString(ind + "  " + r.p.paint(dim, "(no messages)") + "\n")
		return
	}
	shown, hidden := steps, 0
	if len(steps) > stepsShown {
		half := stepsShown / 2
		hidden = len(steps) - stepsShown
		shown = append(append([]step{}, steps[:half]...), steps[len(steps)-half:]...)
	}
	width := 0
	for _, s := range shown {
		width = max(width, len(s.who))
	}
	for i, s := range shown {
		if hidden > 0 && i == stepsShown/2 {
			b.WriteString(ind + "  " + r.p.paint(dim, fmt.Sprintf("… %d more steps (the JSON report has them)", hidden)) + "\n")
		}
		line := ind + "  " + r.p.paint(dim, fmt.Sprintf("%-*s", width, s.who)) + " "
		if s.mark != "" {
			line += r.p.paint(s.st, s.mark) + " "
		}
		line += r.p.line(plain, textsafe.Truncate(s.text, maxStepRunes))
		b.WriteString(line + "\n")
	}
	if o := a.Omitted; o != nil && (o.Messages > 0 || o.ToolCalls > 0) {
		b.WriteString(ind + "  " + r.p.paint(dim, fmt.Sprintf("(the report left out %d messages and %d tool calls of a long run)", o.Messages, o.ToolCalls)) + "\n")
	}
}

// modelName is the model as the suite named it.
func modelName(a *report.Agent) string {
	if a.Provider != "" {
		return a.Provider + "/" + a.Model
	}
	return a.Model
}

// trajectory turns a trace into steps: user and assistant messages, and
// after each assistant message the tool calls it asked for with their
// outcomes (tool messages themselves are shown through those outcomes).
func trajectory(a *report.Agent) []step {
	var out []step
	next := 0
	for _, m := range a.Messages {
		switch m.Role {
		case "user":
			out = append(out, step{who: "user", text: oneLine(m.Content)})
		case "assistant":
			if t := oneLine(m.Content); t != "" {
				out = append(out, step{who: "assistant", text: t})
			}
			for range m.ToolCalls {
				if next < len(a.ToolCalls) {
					out = append(out, callStep(&a.ToolCalls[next]))
					next++
				}
			}
		}
	}
	// Calls whose assistant message a bound left out of the report.
	for ; next < len(a.ToolCalls); next++ {
		out = append(out, callStep(&a.ToolCalls[next]))
	}
	return out
}

// callStep shows a tool call as name(args) → outcome.
func callStep(c *report.AgentToolCall) step {
	name := c.Name
	if c.Server != "" {
		name = c.Server + "/" + c.Name
	}
	args, _ := failtext.CompactJSON(c.Args)
	s := step{who: "tool call", text: name + "(" + args + ") → ", mark: "✓", st: green}
	switch {
	case c.TimedOut:
		s.mark, s.st = "✗", red
		s.text += "timed out after " + formatMS(c.DurationMS)
		if c.Fault != "" {
			s.text += " (fault " + c.Fault + ")"
		}
	case c.Error != "":
		s.mark, s.st = "✗", red
		s.text += oneLine(c.Error)
	default:
		if c.IsError {
			s.mark, s.st = "✗", red
			s.text += "isError: "
		}
		s.text += resultText(c.Result)
	}
	return s
}

// resultText is a tool result in brief: the text of its text content, or
// its compact JSON.
func resultText(raw json.RawMessage) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &r) == nil {
		var parts []string
		for _, c := range r.Content {
			if c.Type == "text" {
				parts = append(parts, oneLine(c.Text))
			} else if c.Type != "" {
				parts = append(parts, "["+c.Type+"]")
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, " ")
		}
	}
	if s, ok := failtext.CompactJSON(raw); ok {
		return s
	}
	return strconv.Quote(string(raw))
}

// oneLine folds whitespace so a message shows on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
