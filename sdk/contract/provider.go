package contract

import (
	"context"
	"encoding/json"
)

// Provider reaches a language model. Implementations must be safe for
// concurrent use.
type Provider interface {
	Complete(ctx context.Context, req ChatRequest) (ChatResponse, error)
	Embed(ctx context.Context, req EmbedRequest) (EmbedResponse, error)
}

// ChatRequest is a chat completion request in mcptest's provider-neutral
// shape; each provider plugin maps it to its API.
type ChatRequest struct {
	// Key is the provider key the request was routed by.
	Key         string    `json:"key,omitempty"`
	Model       string    `json:"model"`
	System      string    `json:"system,omitempty"`
	Messages    []Message `json:"messages"`
	Tools       []ToolDef `json:"tools,omitempty"`
	Temperature *float64  `json:"temperature,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// Options carries provider-specific parameters verbatim.
	Options json.RawMessage `json:"options,omitempty"`
	// Seat, set by a plugin asking the host, tells identical requests
	// apart for the host's verdict cache: two jurors of one model send
	// the same request and must each get their own call. The host strips
	// it before the request reaches a provider.
	Seat *Seat `json:"seat,omitempty"`
}

// Seat places a plugin's model request: which juror (or panel seat) of
// the assertion asks, and for which trial of the test (MatchOptions'
// Trial). Requests that differ only in their seat are different
// questions to the host's verdict cache.
type Seat struct {
	Juror int `json:"juror,omitempty"`
	Trial int `json:"trial,omitempty"`
}

// Message is one chat turn.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role      string     `json:"role"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a "tool" message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// ToolName is the name of the tool a "tool" message answers; some
	// vendors (Gemini) address results by name rather than by call id.
	ToolName string `json:"tool_name,omitempty"`
	// Parts holds the message's content blocks when it is more than one
	// text: a tool result's text, structured JSON and images, passed to
	// the vendor in its native blocks. When Parts is set, Content is
	// ignored by providers.
	Parts []Part `json:"parts,omitempty"`
	// IsError marks a "tool" message whose tool reported an error (MCP
	// isError: true); providers pass it in the vendor's own error flag
	// where it has one.
	IsError bool `json:"is_error,omitempty"`
}

// Part kinds.
const (
	// PartText is plain text in Part.Text.
	PartText = "text"
	// PartJSON is a structured value in Part.JSON (MCP structuredContent).
	PartJSON = "json"
	// PartImage is an image: base64 Part.Data of type Part.MIMEType.
	PartImage = "image"
)

// Part is one content block of a message.
type Part struct {
	// Type is PartText, PartJSON or PartImage.
	Type string `json:"type"`
	// Text is the text of a PartText.
	Text string `json:"text,omitempty"`
	// JSON is the value of a PartJSON.
	JSON json.RawMessage `json:"json,omitempty"`
	// MIMEType is the media type of a PartImage, such as image/png.
	MIMEType string `json:"mime_type,omitempty"`
	// Data is the base64 (standard encoding) bytes of a PartImage.
	Data string `json:"data,omitempty"`
}

// ToolDef is a tool offered to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// ToolCall is a tool invocation requested by the model.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ChatResponse is the model's reply.
type ChatResponse struct {
	Message Message `json:"message"`
	// StopReason is one of the Stop* constants: why the model stopped.
	StopReason string `json:"stop_reason,omitempty"`
	Usage      Usage  `json:"usage"`
	// Model is the model id the vendor says answered; "" when unknown.
	Model string `json:"model,omitempty"`
	// Cached is set by the host when its verdict cache answered a
	// plugin's request: no model was called and Usage.CostUSD is 0.
	Cached bool `json:"cached,omitempty"`
}

// Stop reasons of a ChatResponse, the same for every vendor; providers map
// their vendor's values onto these.
const (
	// StopEndTurn: the model finished its answer.
	StopEndTurn = "end_turn"
	// StopToolUse: the model asks for the tool calls in its message.
	StopToolUse = "tool_use"
	// StopMaxTokens: the answer was cut at the request's MaxTokens.
	StopMaxTokens = "max_tokens"
	// StopSequence: a stop sequence ended the answer.
	StopSequence = "stop_sequence"
	// StopContentFilter: the vendor withheld or cut the answer.
	StopContentFilter = "content_filter"
	// StopOther: any other reason the vendor gave.
	StopOther = "other"
)

// Usage is what a call consumed. InputTokens are the prompt tokens and
// OutputTokens the completion tokens. CostUSD is nil when the provider
// cannot price the call.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// TotalTokens is the total the vendor reported; 0 when it reported
	// none. Use Total, which falls back to the sum.
	TotalTokens int64    `json:"total_tokens,omitempty"`
	CostUSD     *float64 `json:"cost_usd,omitempty"`
}

// Total is the vendor's total, or input plus output when it gave none.
func (u Usage) Total() int64 {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.InputTokens + u.OutputTokens
}

// EmbedRequest asks for one embedding per input.
type EmbedRequest struct {
	Key    string   `json:"key,omitempty"`
	Model  string   `json:"model"`
	Inputs []string `json:"inputs"`
}

// EmbedResponse holds one vector per input, in order.
type EmbedResponse struct {
	Vectors [][]float32 `json:"vectors"`
	Usage   Usage       `json:"usage"`
}
