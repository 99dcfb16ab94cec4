package budget

import (
	"github.com/mcptest/mcptest/sdk"
)

// bytesPerToken is the prompt estimate's ratio. Vendors quote about four
// characters of English a token; counting three bytes a token errs high for
// English and stays near one token a character for scripts that take three
// UTF-8 bytes a character, so the check refuses early rather than late.
const bytesPerToken = 3

// messageOverhead is the tokens a message costs beyond its text (role and
// separators), by the vendors' published accounting, rounded up.
const messageOverhead = 4

// EstimateTokens is the most a request can consume: an estimate of its
// prompt tokens (system prompt, messages, tool calls and tool definitions)
// and its max_tokens as completion tokens.
func EstimateTokens(req sdk.ChatRequest) (in, out int64) {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.ToolCallID)
		for _, c := range m.ToolCalls {
			n += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		in += messageOverhead
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	in += int64((n + bytesPerToken - 1) / bytesPerToken)
	return in, int64(req.MaxTokens)
}
