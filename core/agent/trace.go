package agent

import (
	"encoding/json"

	"github.com/mcptest/mcptest/sdk"
)

// Stop reasons: why a run stopped (conversation.stop_reason).
const (
	// StopCompleted: the model answered without asking for a tool on the
	// last user turn.
	StopCompleted = "completed"
	// StopTurnBudget: max_turns model calls in one user turn and the model
	// still asked for tools.
	StopTurnBudget = "turn_budget"
	// StopTokenBudget: the run's tokens crossed token_budget.
	StopTokenBudget = "token_budget"
	// StopToolCallBudget: the model asked for more than max_tool_calls.
	StopToolCallBudget = "tool_call_budget"
	// StopTimeBudget: time_budget passed (virtual time included).
	StopTimeBudget = "time_budget"
	// StopError: the run could not be carried out (a model or catalogue
	// failure); the test is errored, not judged.
	StopError = "error"
)

// Trace is the record of one agent run. Its JSON form is the envelope an
// agent test's expect targets resolve on; every field is always written
// (empty arrays as [], absent isError as false) so that a target never
// fails on a missing key when the value is merely empty.
type Trace struct {
	// Model is the model id the run used.
	Model string `json:"model"`
	// Provider is the providers: entry the model came from; "" for a
	// model whose family was detected from its name.
	Provider string `json:"provider,omitempty"`
	// Servers are the servers whose tools the model saw, in order.
	Servers []string `json:"servers"`
	// Tools is the merged catalogue offered to the model.
	Tools []Tool `json:"tools"`
	// ToolCalls are the calls the model made, in order, over every turn.
	ToolCalls []ToolCall `json:"tool_calls"`
	// ToolResults holds one result per call, same order as ToolCalls.
	ToolResults []ToolResult `json:"tool_results"`
	// ToolNames is the trajectory: the bare names of ToolCalls in order.
	ToolNames []string `json:"tool_names"`
	// RedundantToolCalls counts calls repeating an earlier (server, name,
	// args) triple exactly.
	RedundantToolCalls int `json:"redundant_tool_calls"`
	// FinalResponse is the model's last reply without tool calls; "" when
	// the run stopped on a cap.
	FinalResponse string `json:"final_response"`
	// Conversation holds the run-wide figures and the messages.
	Conversation Conversation `json:"conversation"`
	// ModelCalls records every model call, in order (agent and simulated
	// user), for reports and spans.
	ModelCalls []ModelCall `json:"model_calls"`
	// Faults records the calls an injected fault answered, in order; nil
	// when the test injects none.
	Faults []FaultHit `json:"faults,omitempty"`
	// Recovery holds the figures the recovery gate judges; nil when the
	// test has no recovery block.
	Recovery *RecoveryStats `json:"recovery,omitempty"`
}

// ToolCall is one tool call the model made.
type ToolCall struct {
	// ID is the call id the model gave (or a generated one).
	ID string `json:"id"`
	// Name is the bare tool name (the <server>__ prefix stripped).
	Name string `json:"name"`
	// Server is the server the call was routed to; "" when the model
	// named a tool no server offers.
	Server string `json:"server"`
	// Args are the arguments the model passed, as JSON ({} when none).
	Args json.RawMessage `json:"args"`
	// HopIndex is the zero-based position of the call in the run.
	HopIndex int `json:"hop_index"`
	// Turn is the zero-based user turn the call belongs to.
	Turn int `json:"turn"`
	// InputsDigest fingerprints the context the model had when it made
	// the call (system prompt, tools, messages; never provider call ids).
	InputsDigest string `json:"inputs_digest"`
}

// ToolResult is the answer to one tool call.
type ToolResult struct {
	// Name and Server mirror the call's.
	Name   string `json:"name"`
	Server string `json:"server"`
	// CallIndex is the index of the call in ToolCalls (in a per-turn
	// slice, the index within the turn).
	CallIndex int `json:"call_index"`
	// IsError is true for a result flagged isError, a JSON-RPC error, a
	// transport failure, an unknown tool and a timed-out call.
	IsError bool `json:"isError"`
	// Result is the tools/call result as the server sent it, with
	// isError written in (false) when the server left it out; null when
	// there was none.
	Result json.RawMessage `json:"result"`
	// Error says why there is no result; "" when there is one.
	Error string `json:"error,omitempty"`
	// TimedOut is true when the call was given up after the per-call
	// timeout (an injected fault).
	TimedOut bool `json:"timed_out,omitempty"`
	// Fault names the injected fault that answered the call.
	Fault string `json:"fault,omitempty"`
	// DurationMS is how long the call took, virtual time included.
	DurationMS float64 `json:"duration_ms"`
}

// Conversation holds the run-wide figures of a trace.
type Conversation struct {
	// Tokens is the cumulative usage the provider reported.
	Tokens Tokens `json:"tokens"`
	// DurationMS is the duration of the loop, virtual time included.
	DurationMS float64 `json:"duration_ms"`
	// MessageCount counts the user, assistant and tool messages.
	MessageCount int `json:"message_count"`
	// StopReason is one of the Stop* constants.
	StopReason string `json:"stop_reason"`
	// StopDetail names the cap and its limit when a cap stopped the run.
	StopDetail string `json:"stop_detail,omitempty"`
	// PerTurn holds one slice per user turn of a multi-turn run; empty on
	// a single-prompt run.
	PerTurn []Turn `json:"per_turn"`
	// Messages is the conversation as sent to the model (tool names as
	// the model saw them, prefixed when there are several servers).
	Messages []sdk.Message `json:"messages"`
}

// Tokens is token usage.
type Tokens struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	Total      int64 `json:"total"`
}

// add counts a call's usage; the total is the vendor's when it gave one
// (it may count tokens, such as reasoning, that neither side shows).
func (t *Tokens) add(u sdk.Usage) {
	t.Prompt += u.InputTokens
	t.Completion += u.OutputTokens
	t.Total += u.Total()
}

// Turn is the slice of a multi-turn run that one user message started.
type Turn struct {
	// User is the user message.
	User string `json:"user"`
	// FinalResponse is the model's reply that ended the turn; "" when a
	// cap stopped it.
	FinalResponse string `json:"final_response"`
	// ToolCalls and ToolResults are the turn's calls and results; their
	// call_index counts within the turn, hop_index within the run.
	ToolCalls   []ToolCall   `json:"tool_calls"`
	ToolResults []ToolResult `json:"tool_results"`
	// Tokens is the turn's usage (agent calls only).
	Tokens Tokens `json:"tokens"`
	// StopReason is completed, or the cap that stopped the run in this
	// turn.
	StopReason string `json:"stop_reason"`
}

// Model call roles.
const (
	// RoleAgent is a call of the model under test.
	RoleAgent = "agent"
	// RoleSimulator is a call that wrote a simulated user's message.
	RoleSimulator = "simulator"
)

// ModelCall is one chat completion of the run.
type ModelCall struct {
	// Role is RoleAgent or RoleSimulator.
	Role string `json:"role"`
	// Turn is the user turn the call belongs to.
	Turn int `json:"turn"`
	// Messages is how many messages of Conversation.Messages were sent
	// (an agent call's input is Messages[:n]; a simulator call sends its
	// own transcript, see Request).
	Messages int `json:"messages"`
	// Request is the request of a simulator call (whose input is not a
	// prefix of the conversation); nil for agent calls.
	Request *sdk.ChatRequest `json:"request,omitempty"`
	// Output is the model's message.
	Output sdk.Message `json:"output"`
	// StopReason is the provider's stop reason.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage is the call's usage as reported.
	Usage sdk.Usage `json:"usage"`
	// DurationMS is the call's wall-clock duration.
	DurationMS float64 `json:"duration_ms"`
}

// FaultHit is one call an injected fault answered.
type FaultHit struct {
	// Fault is the fault's name; Kind its kind.
	Fault string `json:"fault"`
	Kind  string `json:"kind"`
	// CallIndex is the call's index in ToolCalls.
	CallIndex int `json:"call_index"`
	// AtMS is when the call started, in run time (virtual included).
	AtMS float64 `json:"at_ms"`
	// DetectionMS is how long the loop waited before giving up (or, for a
	// slow call that answered, the delay).
	DetectionMS float64 `json:"detection_ms"`
	// TimedOut is true when the loop gave up on the call.
	TimedOut bool `json:"timed_out"`
}

// RecoveryStats are the figures of a run with injected faults that the
// recovery gate judges (recovery.* targets).
type RecoveryStats struct {
	// FaultHits counts the calls a fault answered.
	FaultHits int `json:"fault_hits"`
	// DetectionMS is the longest wait on a faulted call.
	DetectionMS float64 `json:"detection_ms"`
	// Recovered is true when the model finished the run (stop reason
	// completed, a final reply) after the last faulted call.
	Recovered bool `json:"recovered"`
	// RecoveryMS runs from the start of the first faulted call to the end
	// of the run; 0 when no fault was hit.
	RecoveryMS float64 `json:"recovery_ms"`
	// CleanTimeouts is true when every faulted call that did not answer
	// was given up by a timeout within max_detection_ms.
	CleanTimeouts bool `json:"clean_timeouts"`
}

// JSON returns the trace's JSON form, the envelope targets resolve on.
func (t *Trace) JSON() (json.RawMessage, error) {
	return json.Marshal(t)
}
