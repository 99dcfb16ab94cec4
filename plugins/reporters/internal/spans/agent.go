package spans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcptest/mcptest/sdk/report"
)

// The span names and kinds of an agent test's run, below its test span:
// one mcptest.agent span for the loop, and under it one mcptest.llm span
// per model call and one mcptest.tool span per tool call, in the order
// they happened.
const (
	NameAgent = "mcptest.agent"
	NameLLM   = "mcptest.llm"
	NameTool  = "mcptest.tool"

	KindAgent = "AGENT"
	KindLLM   = "LLM"
	KindTool  = "TOOL"
)

// OpenInference attribute keys of agent, model and tool spans. Message
// lists are flattened as OpenInference does: the list key, the message's
// index, then the message attribute (llm.input_messages.0.message.role).
const (
	AttrAgentName            = "agent.name"
	AttrLLMModelName         = "llm.model_name"
	AttrLLMProvider          = "llm.provider"
	AttrLLMFinishReason      = "llm.finish_reason"
	AttrLLMTokenPrompt       = "llm.token_count.prompt"
	AttrLLMTokenCompletion   = "llm.token_count.completion"
	AttrLLMTokenTotal        = "llm.token_count.total"
	AttrLLMInputMessages     = "llm.input_messages"
	AttrLLMOutputMessages    = "llm.output_messages"
	AttrMessageRole          = "message.role"
	AttrMessageContent       = "message.content"
	AttrMessageToolCalls     = "message.tool_calls"
	AttrMessageToolCallID    = "message.tool_call_id"
	AttrToolCallID           = "tool_call.id"
	AttrToolCallFunctionName = "tool_call.function.name"
	AttrToolCallFunctionArgs = "tool_call.function.arguments"
	AttrToolName             = "tool.name"
	AttrToolParameters       = "tool.parameters"
	AttrToolID               = "tool.id"
)

// maxInputMessages bounds the input messages an LLM span lists: each call
// sends the whole conversation so far, so listing all of it on every span
// grows with the square of the run. The latest messages are listed, and
// mcptest.llm.input_messages_omitted counts the earlier ones.
const maxInputMessages = 16

// maxMessageText caps each message's text on a span; the JSON report
// keeps the trace's full (bounded) text.
const maxMessageText = 4 << 10

// providerNames maps mcptest's provider families to the OpenInference
// LLMProvider values (the npm package's enum).
var providerNames = map[string]string{
	"anthropic": "anthropic",
	"openai":    "openai",
	"gemini":    "google",
	"mistral":   "mistralai",
}

// agentSpans builds the spans of an agent test's trace below its test
// span ts, placed one after the other from the test's start: the loop
// runs model and tool calls in sequence. When the trace's durations
// (virtual time of injected faults included) add up to more than the test
// span, the placement is scaled to fit inside it; duration_ms keeps the
// trace's own figures.
func agentSpans(t *report.Test, key string, ts *Span) []Span {
	a := t.Agent
	agentID := derive(spanIDBytes, "span/agent", key, ts.SpanID)
	root := Span{TraceID: ts.TraceID, SpanID: agentID, ParentSpanID: ts.SpanID, Name: NameAgent, Kind: KindAgent,
		StatusCode: StatusOK, DurationMS: a.DurationMS}
	if a.StopReason != "" && a.StopReason != "completed" {
		root.StatusCode = StatusError
		root.StatusMessage = "the run stopped on " + a.StopReason
		if a.StopDetail != "" {
			root.StatusMessage += ": " + a.StopDetail
		}
	}
	attrs := map[string]any{AttrSpanKind: KindAgent, AttrAgentName: t.Name}
	modelAttrs(attrs, a)
	tokenAttrs(attrs, a.Tokens)
	setString(attrs, "mcptest.agent.stop_reason", a.StopReason)
	setString(attrs, "mcptest.agent.stop_detail", a.StopDetail)
	setStrings(attrs, "mcptest.agent.servers", a.Servers)
	attrs["mcptest.agent.model_calls"] = len(a.ModelCalls)
	attrs["mcptest.agent.tool_calls"] = len(a.ToolCalls)
	if a.Replayed {
		attrs["mcptest.agent.replayed"] = true
	}
	if a.CostUSDCents != nil {
		attrs["mcptest.agent.cost_usd_cents"] = *a.CostUSDCents
	}
	if o := a.Omitted; o != nil {
		setInt(attrs, "mcptest.agent.omitted.messages", o.Messages)
		setInt(attrs, "mcptest.agent.omitted.model_calls", o.ModelCalls)
		setInt(attrs, "mcptest.agent.omitted.tool_calls", o.ToolCalls)
		setInt(attrs, "mcptest.agent.omitted.cut_fields", o.CutFields)
	}
	if p := firstUser(a.Messages); p != "" {
		attrs[AttrInputValue], attrs[AttrInputMimeType] = capText(p), MimeText
	}
	if a.FinalResponse != "" {
		attrs[AttrOutputValue], attrs[AttrOutputMimeType] = capText(a.FinalResponse), MimeText
	}
	root.Attributes = attrs

	// Tool calls are in the order the loop made them; the ones a reply
	// asked for follow its model call. Calls left over (a bound dropped
	// the replies that asked for them) come last.
	children := make([]Span, 0, len(a.ModelCalls)+len(a.ToolCalls))
	next := 0 // the next tool call not yet placed
	for i := range a.ModelCalls {
		children = append(children, llmSpan(a, i, key, ts.TraceID, agentID))
		for n := len(a.ModelCalls[i].Output.ToolCalls); n > 0 && next < len(a.ToolCalls); n-- {
			children = append(children, toolSpan(a, next, key, ts.TraceID, agentID))
			next++
		}
	}
	for ; next < len(a.ToolCalls); next++ {
		children = append(children, toolSpan(a, next, key, ts.TraceID, agentID))
	}
	place(ts, &root, children)
	return append([]Span{root}, children...)
}

// place lays the agent span and its children out from the test's start:
// the children back to back, the agent span around them. Everything is
// scaled down when it would end after the test span.
func place(ts, root *Span, children []Span) {
	total := nanos(root.DurationMS)
	var sum int64
	for i := range children {
		sum += nanos(children[i].DurationMS)
	}
	total = max(total, sum)
	window := ts.EndUnixNano - ts.StartUnixNano
	scale := 1.0
	if total > window {
		scale = float64(window) / float64(total)
		if window <= 0 {
			scale = 0
		}
	}
	at := ts.StartUnixNano
	for i := range children {
		d := int64(float64(nanos(children[i].DurationMS)) * scale)
		children[i].StartUnixNano, children[i].EndUnixNano = at, min(at+d, ts.EndUnixNano)
		at = children[i].EndUnixNano
	}
	root.StartUnixNano = ts.StartUnixNano
	root.EndUnixNano = min(ts.StartUnixNano+int64(float64(total)*scale), ts.EndUnixNano)
	root.EndUnixNano = max(root.EndUnixNano, at)
}

// llmSpan is model call i.
func llmSpan(a *report.Agent, i int, key, trace, parent string) Span {
	c := &a.ModelCalls[i]
	sp := Span{TraceID: trace, SpanID: derive(spanIDBytes, "span/llm", key, parent, strconv.Itoa(i)), ParentSpanID: parent,
		Name: NameLLM, Kind: KindLLM, StatusCode: StatusOK, DurationMS: c.DurationMS}
	attrs := map[string]any{AttrSpanKind: KindLLM, "mcptest.llm.role": c.Role, "mcptest.llm.turn": c.Turn, "mcptest.llm.index": i}
	modelAttrs(attrs, a)
	tokenAttrs(attrs, c.Tokens)
	setString(attrs, AttrLLMFinishReason, c.StopReason)
	in := c.Request
	if c.Role != "simulator" {
		in = inputOf(a, c)
	}
	if len(in) > maxInputMessages {
		attrs["mcptest.llm.input_messages_omitted"] = len(in) - maxInputMessages
		in = in[len(in)-maxInputMessages:]
	}
	for j := range in {
		messageAttrs(attrs, AttrLLMInputMessages+"."+strconv.Itoa(j)+".", &in[j])
	}
	messageAttrs(attrs, AttrLLMOutputMessages+".0.", &c.Output)
	sp.Attributes = attrs
	return sp
}

// inputOf is what an agent call sent: the system prompt, then the first
// Input messages of the conversation.
func inputOf(a *report.Agent, c *report.AgentModelCall) []report.AgentMessage {
	n := min(max(c.Input, 0), len(a.Messages))
	out := make([]report.AgentMessage, 0, n+1)
	if a.System != "" {
		out = append(out, report.AgentMessage{Role: "system", Content: a.System})
	}
	return append(out, a.Messages[:n]...)
}

// messageAttrs flattens one message under prefix.
func messageAttrs(attrs map[string]any, prefix string, m *report.AgentMessage) {
	setString(attrs, prefix+AttrMessageRole, m.Role)
	if m.Content != "" {
		attrs[prefix+AttrMessageContent] = capTo(m.Content, maxMessageText)
	}
	setString(attrs, prefix+AttrMessageToolCallID, m.ToolCallID)
	for k, tc := range m.ToolCalls {
		p := prefix + AttrMessageToolCalls + "." + strconv.Itoa(k) + "."
		setString(attrs, p+AttrToolCallID, tc.ID)
		setString(attrs, p+AttrToolCallFunctionName, tc.Name)
		if args := jsonText(tc.Arguments); args != "" {
			attrs[p+AttrToolCallFunctionArgs] = capTo(args, maxMessageText)
		}
	}
}

// toolSpan is tool call i. A failed call or a result flagged isError is
// an ERROR span: the operation failed, whatever the test made of it.
func toolSpan(a *report.Agent, i int, key, trace, parent string) Span {
	c := &a.ToolCalls[i]
	sp := Span{TraceID: trace, SpanID: derive(spanIDBytes, "span/tool", key, parent, strconv.Itoa(i)), ParentSpanID: parent,
		Name: NameTool, Kind: KindTool, StatusCode: StatusOK, DurationMS: c.DurationMS}
	if c.IsError {
		sp.StatusCode = StatusError
		switch {
		case c.TimedOut:
			sp.StatusMessage = fmt.Sprintf("tool %s timed out", c.Name)
		case c.Error != "":
			sp.StatusMessage = capTo(c.Error, maxMessageText)
		default:
			sp.StatusMessage = fmt.Sprintf("tool %s answered with isError", c.Name)
		}
	}
	attrs := map[string]any{AttrSpanKind: KindTool, AttrToolName: c.Name, "mcptest.tool.hop_index": c.HopIndex,
		"mcptest.tool.turn": c.Turn, "mcptest.tool.is_error": c.IsError}
	setString(attrs, AttrToolID, c.ID)
	setString(attrs, "mcptest.tool.server", c.Server)
	setString(attrs, "mcptest.tool.fault", c.Fault)
	if c.TimedOut {
		attrs["mcptest.tool.timed_out"] = true
	}
	if args := jsonText(c.Args); args != "" {
		attrs[AttrToolParameters] = capText(args)
		if v, mime, ok := valueOf(c.Args, false); ok {
			attrs[AttrInputValue], attrs[AttrInputMimeType] = v, mime
		}
	}
	if v, mime, ok := valueOf(c.Result, false); ok {
		attrs[AttrOutputValue], attrs[AttrOutputMimeType] = v, mime
	} else if c.Error != "" {
		attrs[AttrOutputValue], attrs[AttrOutputMimeType] = capText(c.Error), MimeText
	}
	sp.Attributes = attrs
	return sp
}

// modelAttrs sets the model's name and provider. llm.provider takes
// OpenInference's provider names; a providers: entry (an OpenAI-
// compatible endpoint) is named by mcptest.llm.provider_entry instead,
// since its vendor is not known.
func modelAttrs(attrs map[string]any, a *report.Agent) {
	setString(attrs, AttrLLMModelName, a.Model)
	if p, ok := providerNames[a.Family]; ok && a.Provider == "" {
		attrs[AttrLLMProvider] = p
	}
	setString(attrs, "mcptest.llm.family", a.Family)
	setString(attrs, "mcptest.llm.provider_entry", a.Provider)
}

func tokenAttrs(attrs map[string]any, t report.AgentTokens) {
	attrs[AttrLLMTokenPrompt] = int(t.Prompt)
	attrs[AttrLLMTokenCompletion] = int(t.Completion)
	attrs[AttrLLMTokenTotal] = int(t.Total)
}

// firstUser is the first user message: the prompt that started the run.
func firstUser(ms []report.AgentMessage) string {
	for _, m := range ms {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// jsonText is compact JSON text of raw; a JSON string (a value the
// report's bound cut to text) is its text. "" for nothing.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// capTo cuts s to n bytes on a rune boundary, saying how much went.
func capTo(s string, n int) string {
	if len(s) <= n {
		return capText(s)
	}
	cut := n
	for cut > 0 && cut < len(s) && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return capText(s[:cut]) + fmt.Sprintf("… [%d bytes cut]", len(s)-cut)
}
