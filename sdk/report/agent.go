package report

import "encoding/json"

// Agent is the trace of an agent test's run as reports show it: the model,
// the conversation, each model call and each tool call. The core bounds it
// (long texts and long runs are cut, and Omitted says what went) and masks
// secrets before any reporter sees it.
type Agent struct {
	// Model is the model id; Provider the providers: entry it came from
	// ("" for a model whose family was detected from its name).
	Model    string `json:"model"`
	Provider string `json:"provider,omitempty"`
	// Family is the provider family that served the model: anthropic,
	// openai, gemini, mistral or stub; "" when unknown.
	Family string `json:"family,omitempty"`
	// Replayed is true when the model's answers came from a cassette.
	Replayed bool `json:"replayed,omitempty"`
	// Servers are the servers whose tools the model saw.
	Servers []string `json:"servers,omitempty"`
	// System is the system prompt; "" for none.
	System string `json:"system,omitempty"`
	// StopReason is why the run stopped: completed, turn_budget,
	// token_budget, tool_call_budget, time_budget or error; StopDetail
	// names the cap and its limit when a cap stopped it.
	StopReason string `json:"stop_reason"`
	StopDetail string `json:"stop_detail,omitempty"`
	// FinalResponse is the model's last plain-text reply.
	FinalResponse string `json:"final_response,omitempty"`
	// Tokens is the run's cumulative usage.
	Tokens AgentTokens `json:"tokens"`
	// CostUSDCents is what the run's model calls cost, when their price is
	// known.
	CostUSDCents *float64 `json:"cost_usd_cents,omitempty"`
	// DurationMS is the loop's duration, virtual time included.
	DurationMS float64 `json:"duration_ms"`
	// Messages is the conversation as sent to the model.
	Messages []AgentMessage `json:"messages"`
	// ModelCalls are the model calls in order.
	ModelCalls []AgentModelCall `json:"model_calls"`
	// ToolCalls are the tool calls in order, each with its result.
	ToolCalls []AgentToolCall `json:"tool_calls"`
	// Omitted counts what the report's bounds left out; nil when nothing
	// was.
	Omitted *AgentOmitted `json:"omitted,omitempty"`
}

// AgentTokens is token usage.
type AgentTokens struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	Total      int64 `json:"total"`
}

// AgentMessage is one message of the conversation.
type AgentMessage struct {
	// Role is system, user, assistant or tool.
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the tools an assistant message asked for.
	ToolCalls []AgentMessageToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// AgentMessageToolCall is a tool call inside an assistant message, named as
// the model saw the tool (with its server prefix when several servers
// were offered).
type AgentMessageToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// AgentModelCall is one chat completion of the run.
type AgentModelCall struct {
	// Role is agent (the model under test) or simulator (a simulated
	// user's message).
	Role string `json:"role"`
	// Turn is the zero-based user turn of the call.
	Turn int `json:"turn"`
	// Input is how many messages of Agent.Messages an agent call sent; a
	// simulator call sends its own transcript, in Request.
	Input   int            `json:"input"`
	Request []AgentMessage `json:"request,omitempty"`
	// Output is the model's reply.
	Output     AgentMessage `json:"output"`
	StopReason string       `json:"stop_reason,omitempty"`
	Tokens     AgentTokens  `json:"tokens"`
	DurationMS float64      `json:"duration_ms"`
}

// AgentToolCall is one tool call and its result.
type AgentToolCall struct {
	ID string `json:"id,omitempty"`
	// Name is the bare tool name; Server the server it was routed to.
	Name   string `json:"name"`
	Server string `json:"server,omitempty"`
	// Args are the arguments the model passed.
	Args json.RawMessage `json:"args,omitempty"`
	// HopIndex is the call's position in the run; Turn its user turn.
	HopIndex int `json:"hop_index"`
	Turn     int `json:"turn"`
	// IsError is true when the call failed or its result is flagged
	// isError; Result is the tools/call result, Error why there is none.
	IsError bool            `json:"isError"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
	// TimedOut is true when the loop gave up waiting (an injected fault,
	// named by Fault).
	TimedOut   bool    `json:"timed_out,omitempty"`
	Fault      string  `json:"fault,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// AgentOmitted counts what a trace's bounds left out of the report.
type AgentOmitted struct {
	// Messages, ModelCalls and ToolCalls count the entries dropped from
	// the middle of a long run (its start and end are kept).
	Messages   int `json:"messages,omitempty"`
	ModelCalls int `json:"model_calls,omitempty"`
	ToolCalls  int `json:"tool_calls,omitempty"`
	// CutFields counts the texts and JSON values cut to the field limit.
	CutFields int `json:"cut_fields,omitempty"`
}
