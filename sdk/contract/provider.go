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
}

// Message is one chat turn.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role      string     `json:"role"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a "tool" message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
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
	Message    Message `json:"message"`
	StopReason string  `json:"stop_reason,omitempty"`
	Usage      Usage   `json:"usage"`
}

// Usage is what a call consumed. CostUSD is nil when the provider cannot
// price the call.
type Usage struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	CostUSD      *float64 `json:"cost_usd,omitempty"`
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
