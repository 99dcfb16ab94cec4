package judge

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/internal/judgereply"
)

// Candidate is what a grade judges: a fixed response, or a live agent
// run graded as a whole.
type Candidate struct {
	// Prompt is the prompt the candidate answers.
	Prompt string
	// Response is the fixed response; for an agent run, leave it "" (the
	// trace's final reply is used).
	Response string
	// Trace is the agent run; nil for a fixed response.
	Trace *agent.Trace
	// TrialIndex is the trial of the run that produced the candidate; it
	// is part of the verdict cache key, so each trial is judged anew.
	TrialIndex int
}

// Kind is "agent" for a trace and "response" otherwise (report.Eval's
// Candidate field).
func (c Candidate) Kind() string {
	if c.Trace != nil {
		return "agent"
	}
	return "response"
}

// Final is the graded reply: the fixed response or the run's final reply.
func (c Candidate) Final() string {
	if c.Trace != nil {
		return c.Trace.FinalResponse
	}
	return c.Response
}

// Bounds of the candidate text shown to a judge. A judge prompt stays
// well under every vendor's context window, and the candidate cannot
// crowd out the rubric.
const (
	maxCandidate   = 48 << 10
	maxFinal       = 16 << 10
	maxToolPayload = 2 << 10
	maxToolCalls   = 50
)

// Text is the candidate as the judge sees it, bounded: the response, or
// for an agent run its tool calls with their results, then the final
// reply. when: predicates and evidence are checked against this text.
func (c Candidate) Text() string {
	if c.Trace == nil {
		return judgereply.Excerpt(c.Response, maxCandidate)
	}
	return renderRun(c.Trace.ToolCalls, c.Trace.ToolResults, c.Trace.FinalResponse)
}

// renderRun writes tool calls, results and a final reply as plain text.
func renderRun(calls []agent.ToolCall, results []agent.ToolResult, final string) string {
	var b strings.Builder
	if len(calls) == 0 {
		b.WriteString("Tool calls: none.\n")
	} else {
		b.WriteString("Tool calls, in order:\n")
	}
	for i, call := range calls {
		if i == maxToolCalls {
			fmt.Fprintf(&b, "... %d more calls not shown.\n", len(calls)-i)
			break
		}
		name := call.Name
		if call.Server != "" {
			name = call.Server + "." + call.Name
		}
		fmt.Fprintf(&b, "%d. %s %s\n", i+1, name, judgereply.Excerpt(string(call.Args), maxToolPayload))
		if i < len(results) {
			r := results[i]
			payload := string(r.Result)
			if r.Error != "" {
				payload = r.Error
			}
			status := "result"
			if r.IsError {
				status = "error result"
			}
			fmt.Fprintf(&b, "   %s: %s\n", status, judgereply.Excerpt(payload, maxToolPayload))
		}
	}
	// The final reply is bounded on its own and always shown whole up to
	// that bound: a long transcript is cut, never the answer.
	final = judgereply.Excerpt(final, maxFinal)
	transcript := judgereply.Excerpt(b.String(), maxCandidate-maxFinal)
	if !strings.HasSuffix(transcript, "\n") {
		transcript += "\n"
	}
	return transcript + "Final reply:\n" + final
}
