// Package tracereport turns an agent run's trace (core/agent.Trace) into
// the trace the run report carries (report.Agent): bounded, so a long or
// chatty run cannot swell the report, and masked, so no secret the suite
// knows reaches it even before the report's own redaction.
package tracereport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// Bounds of a reported trace. They keep the start and the end of a run,
// where failures show, and hold a whole trace to about 2 MiB: 1 MiB of
// text at full length, then at most 256 bytes for each of the (at most a
// few thousand) values left.
const (
	// MaxFieldBytes caps each text and JSON value (message text, tool
	// arguments and results, errors).
	MaxFieldBytes = 8 << 10
	// MaxTraceBytes is the text a trace keeps at full length; once it is
	// spent, each further value is cut to MinFieldBytes.
	MaxTraceBytes = 1 << 20
	// MinFieldBytes is the cut of values after MaxTraceBytes.
	MinFieldBytes = 256
	// MaxItems caps each list (messages, model calls, tool calls): its
	// first and last halves are kept.
	MaxItems = 100
	// MaxRequestMessages caps a simulator call's transcript: its latest
	// messages are kept.
	MaxRequestMessages = 16
)

// Options is what the report says beyond the trace.
type Options struct {
	// Family is the provider family that served the model.
	Family string
	// Replayed is true when the answers came from a cassette.
	Replayed bool
	// System is the run's system prompt (the trace keeps only its
	// digest).
	System string
	// Mask masks secrets in text; nil masks nothing.
	Mask func(string) string
}

// Build returns the report's view of tr.
func Build(tr *agent.Trace, opts Options) *report.Agent {
	b := &builder{mask: opts.Mask}
	if b.mask == nil {
		b.mask = func(s string) string { return s }
	}
	c := &tr.Conversation
	a := &report.Agent{
		Model: b.text(tr.Model), Provider: b.text(tr.Provider), Family: opts.Family, Replayed: opts.Replayed,
		Servers: append([]string(nil), tr.Servers...), StopReason: c.StopReason, StopDetail: b.text(c.StopDetail),
		FinalResponse: b.text(tr.FinalResponse), DurationMS: c.DurationMS,
		Tokens:   report.AgentTokens{Prompt: c.Tokens.Prompt, Completion: c.Tokens.Completion, Total: c.Tokens.Total},
		Messages: []report.AgentMessage{}, ModelCalls: []report.AgentModelCall{}, ToolCalls: []report.AgentToolCall{},
	}
	a.System = b.text(opts.System)
	a.CostUSDCents = cost(tr.ModelCalls)

	msgs, dropped := keep(len(c.Messages))
	for _, i := range msgs {
		a.Messages = append(a.Messages, b.message(c.Messages[i]))
	}
	calls, droppedCalls := keep(len(tr.ModelCalls))
	for _, i := range calls {
		mc := &tr.ModelCalls[i]
		rc := report.AgentModelCall{Role: mc.Role, Turn: mc.Turn, Input: shift(mc.Messages, len(c.Messages), dropped),
			Output: b.message(mc.Output), StopReason: mc.StopReason, DurationMS: mc.DurationMS,
			Tokens: report.AgentTokens{Prompt: mc.Usage.InputTokens, Completion: mc.Usage.OutputTokens, Total: mc.Usage.Total()}}
		if mc.Request != nil {
			rc.Input = 0
			msgs := mc.Request.Messages
			if len(msgs) > MaxRequestMessages {
				b.dropped += len(msgs) - MaxRequestMessages
				msgs = msgs[len(msgs)-MaxRequestMessages:]
			}
			for _, m := range msgs {
				rc.Request = append(rc.Request, b.message(m))
			}
		}
		a.ModelCalls = append(a.ModelCalls, rc)
	}
	tools, droppedTools := keep(len(tr.ToolCalls))
	for _, i := range tools {
		a.ToolCalls = append(a.ToolCalls, b.toolCall(tr, i))
	}
	if dropped+b.dropped+droppedCalls+droppedTools+b.cut > 0 {
		a.Omitted = &report.AgentOmitted{Messages: dropped + b.dropped, ModelCalls: droppedCalls, ToolCalls: droppedTools, CutFields: b.cut}
	}
	return a
}

// cost sums what the model calls cost, in cents; nil when any call has no
// price (a partial sum would understate the run).
func cost(calls []agent.ModelCall) *float64 {
	if len(calls) == 0 {
		return nil
	}
	var usd float64
	for _, c := range calls {
		if c.Usage.CostUSD == nil {
			return nil
		}
		usd += *c.Usage.CostUSD
	}
	cents := usd * 100
	return &cents
}

// keep returns the indexes of a list of n kept under MaxItems (its first
// and last halves) and how many were left out.
func keep(n int) (idx []int, dropped int) {
	if n <= MaxItems {
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx, 0
	}
	half := MaxItems / 2
	for i := 0; i < half; i++ {
		idx = append(idx, i)
	}
	for i := n - half; i < n; i++ {
		idx = append(idx, i)
	}
	return idx, n - MaxItems
}

// shift maps an input length over n messages to the kept list when
// dropped messages were cut from the middle.
func shift(input, n, dropped int) int {
	if dropped == 0 {
		return input
	}
	half := MaxItems / 2
	switch {
	case input <= half:
		return input
	case input >= n-half:
		return input - dropped
	}
	return half
}

// builder converts values, counting what it cuts and the text it keeps.
type builder struct {
	mask func(string) string
	cut  int
	// dropped counts simulator transcript messages left out.
	dropped int
	// kept is the text kept so far, against MaxTraceBytes.
	kept int
}

// limit is the most a value may keep now.
func (b *builder) limit() int {
	if b.kept >= MaxTraceBytes {
		return MinFieldBytes
	}
	return MaxFieldBytes
}

// text masks s and cuts it to the current limit.
func (b *builder) text(s string) string {
	s = b.mask(s)
	n := b.limit()
	if len(s) <= n {
		b.kept += len(s)
		return s
	}
	b.cut++
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	b.kept += cut
	return s[:cut] + fmt.Sprintf("… [%d bytes cut]", len(s)-cut)
}

// json masks a JSON value and, when it is over MaxFieldBytes, replaces it
// by a JSON string holding its cut text. Empty stays empty.
func (b *builder) json(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	s := b.mask(string(raw))
	if len(s) <= b.limit() && json.Valid([]byte(s)) {
		b.kept += len(s)
		return json.RawMessage(s)
	}
	out, _ := json.Marshal(b.text(s))
	return out
}

// message converts a chat message. Content blocks become text: JSON
// compacted, an image named by its type and size (its bytes never go into
// the report).
func (b *builder) message(m sdk.Message) report.AgentMessage {
	rm := report.AgentMessage{Role: m.Role, ToolCallID: b.text(m.ToolCallID)}
	content := m.Content
	if len(m.Parts) > 0 {
		var parts []string
		for _, p := range m.Parts {
			switch p.Type {
			case sdk.PartText:
				parts = append(parts, p.Text)
			case sdk.PartJSON:
				parts = append(parts, string(bytes.TrimSpace(p.JSON)))
			case sdk.PartImage:
				parts = append(parts, fmt.Sprintf("[image %s, %d bytes of base64]", p.MIMEType, len(p.Data)))
			default:
				parts = append(parts, "["+p.Type+"]")
			}
		}
		content = strings.Join(parts, "\n")
	}
	rm.Content = b.text(content)
	for _, c := range m.ToolCalls {
		rm.ToolCalls = append(rm.ToolCalls, report.AgentMessageToolCall{ID: b.text(c.ID), Name: b.text(c.Name), Arguments: b.json(c.Arguments)})
	}
	return rm
}

// toolCall merges tool call i with its result.
func (b *builder) toolCall(tr *agent.Trace, i int) report.AgentToolCall {
	c := &tr.ToolCalls[i]
	rc := report.AgentToolCall{ID: b.text(c.ID), Name: b.text(c.Name), Server: c.Server, Args: b.json(c.Args),
		HopIndex: c.HopIndex, Turn: c.Turn}
	if i < len(tr.ToolResults) {
		r := &tr.ToolResults[i]
		rc.IsError, rc.Error, rc.TimedOut, rc.Fault, rc.DurationMS = r.IsError, b.text(r.Error), r.TimedOut, r.Fault, r.DurationMS
		if res := bytes.TrimSpace(r.Result); len(res) > 0 && string(res) != "null" {
			rc.Result = b.json(res)
		}
	}
	return rc
}
