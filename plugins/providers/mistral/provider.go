package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcptest/mcptest/internal/sse"
	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// defaultBaseURL is Mistral's API address.
const defaultBaseURL = "https://api.mistral.ai"

// Bounds of what is read from the API.
const (
	maxReplyBytes = 32 << 20
	maxLineBytes  = 4 << 20
)

type provider struct {
	http *http.Client
}

// endpointURL joins the base URL and an API path such as
// "/chat/completions".
func endpointURL(ep sdk.Endpoint, path string) string {
	base := strings.TrimRight(ep.BaseURL, "/")
	if base == "" {
		base = defaultBaseURL
	}
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return base + path
}

// post sends body to path and returns the reply's body when the status is
// 2xx; any failure is a vendor error.
func (p *provider) post(ctx context.Context, ep sdk.Endpoint, path string, body any, extra map[string]any) (io.ReadCloser, *vendor.Capture, error) {
	ctx, capt := vendor.WithCapture(ctx)
	if ep.APIKey == "" {
		return nil, capt, errors.New("mistral: no key was sent with the call; set MISTRAL_API_KEY")
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, capt, fmt.Errorf("mistral: encode request: %w", err)
	}
	if len(extra) > 0 {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		for k, v := range extra {
			m[k] = v
		}
		if b, err = json.Marshal(m); err != nil {
			return nil, capt, fmt.Errorf("mistral: encode options: %w", err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpointURL(ep, path), bytes.NewReader(b))
	if err != nil {
		return nil, capt, fmt.Errorf("mistral: %s", vendor.Mask(ep, err.Error()))
	}
	req.Header.Set("Authorization", "Bearer "+ep.APIKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, capt, vendor.Fail(pluginName, ep, capt, err)
	}
	if resp.StatusCode/100 != 2 {
		// The capture keeps the head of the body as it is read.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		return nil, capt, vendor.Fail(pluginName, ep, capt, fmt.Errorf("HTTP %d", resp.StatusCode))
	}
	return resp.Body, capt, nil
}

// Complete sends req to the chat completions API.
func (p *provider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	body, err := toRequest(req)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	o, err := vendor.ParseOptions(req.Options)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("mistral: %w", err)
	}
	body.Stream = o.Stream
	rc, capt, err := p.post(ctx, ep, "/chat/completions", body, o.Fields)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	defer rc.Close()
	var cr chatResponse
	if o.Stream {
		cr, err = readStream(rc)
	} else {
		err = json.NewDecoder(io.LimitReader(rc, maxReplyBytes)).Decode(&cr)
	}
	if err != nil {
		return sdk.ChatResponse{}, vendor.Fail(pluginName, ep, capt, err)
	}
	return fromResponse(cr, ep, capt)
}

// readStream joins a chat stream's chunks into one response.
func readStream(r io.Reader) (chatResponse, error) {
	var out chatResponse
	out.Choices = make([]choice, 1)
	var text strings.Builder
	calls := map[int]*toolCall{}
	var order []int
	lr := sse.NewLineReader(io.LimitReader(r, maxReplyBytes), maxLineBytes)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, fmt.Errorf("read stream: %w", err)
		}
		name, value, comment := sse.Field(line)
		if comment || string(name) != "data" {
			continue
		}
		if string(value) == "[DONE]" {
			break
		}
		var c chatResponse
		if err := json.Unmarshal(value, &c); err != nil {
			return out, fmt.Errorf("stream chunk: %w", err)
		}
		if c.Model != "" {
			out.Model = c.Model
		}
		if c.Usage != nil {
			out.Usage = c.Usage
		}
		if len(c.Choices) == 0 {
			continue
		}
		d := c.Choices[0]
		text.WriteString(contentText(d.Delta.Content))
		for i, tc := range d.Delta.ToolCalls {
			idx := i
			if tc.Index != nil {
				idx = *tc.Index
			}
			cur, ok := calls[idx]
			if !ok {
				cur = &toolCall{ID: tc.ID}
				cur.Function.Name = tc.Function.Name
				calls[idx] = cur
				order = append(order, idx)
			}
			cur.Function.Arguments = append(cur.Function.Arguments, argsText(tc.Function.Arguments)...)
		}
		if d.FinishReason != nil {
			out.Choices[0].FinishReason = d.FinishReason
		}
	}
	content, _ := json.Marshal(text.String())
	out.Choices[0].Message.Content = content
	for _, idx := range order {
		c := *calls[idx]
		c.Function.Arguments, _ = json.Marshal(string(c.Function.Arguments))
		out.Choices[0].Message.ToolCalls = append(out.Choices[0].Message.ToolCalls, c)
	}
	return out, nil
}

// contentText reads a content field: a string, an array of chunks, or null.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var chunks []chunk
	if json.Unmarshal(raw, &chunks) == nil {
		var b strings.Builder
		for _, c := range chunks {
			if c.Type == "text" {
				b.WriteString(c.Text)
			}
		}
		return b.String()
	}
	return ""
}

// argsText is a call's arguments as JSON text: a string's content, or an
// object as it is.
func argsText(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	return raw
}

// toRequest maps the neutral request onto Mistral's.
func toRequest(req sdk.ChatRequest) (chatRequest, error) {
	out := chatRequest{Model: req.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature}
	if req.System != "" {
		out.Messages = append(out.Messages, chatMessage{Role: "system", Content: req.System})
	}
	for _, t := range req.Tools {
		params := t.InputSchema
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, tool{Type: "function", Function: function{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	var images []chunk
	flush := func() {
		if len(images) > 0 {
			out.Messages = append(out.Messages, chatMessage{Role: "user", Content: append([]chunk{{Type: "text", Text: "Images returned by the tool calls above:"}}, images...)})
			images = nil
		}
	}
	names := map[string]string{}
	for i, m := range req.Messages {
		if m.Role != "tool" {
			flush()
		}
		switch m.Role {
		case "system":
			out.Messages = append(out.Messages, chatMessage{Role: "system", Content: m.Content})
		case "user":
			out.Messages = append(out.Messages, chatMessage{Role: "user", Content: userContent(m)})
		case "assistant":
			cm := chatMessage{Role: "assistant", Content: m.Content}
			for _, tc := range m.ToolCalls {
				c := toolCall{ID: tc.ID, Type: "function"}
				args := string(tc.Arguments)
				if args == "" {
					args = "{}"
				}
				c.Function.Name = tc.Name
				c.Function.Arguments, _ = json.Marshal(args)
				names[tc.ID] = tc.Name
				cm.ToolCalls = append(cm.ToolCalls, c)
			}
			out.Messages = append(out.Messages, cm)
		case "tool":
			var texts []string
			if len(m.Parts) == 0 {
				texts = append(texts, m.Content)
			}
			for _, p := range m.Parts {
				if p.Type == sdk.PartImage {
					images = append(images, chunk{Type: "image_url", ImageURL: "data:" + p.MIMEType + ";base64," + p.Data})
					continue
				}
				texts = append(texts, vendor.PartText(p))
			}
			text := strings.Join(texts, "\n")
			if m.IsError {
				text = "Error: " + text
			}
			name := m.ToolName
			if name == "" {
				name = names[m.ToolCallID]
			}
			out.Messages = append(out.Messages, chatMessage{Role: "tool", Content: text, ToolCallID: m.ToolCallID, Name: name})
		default:
			return out, fmt.Errorf("mistral: message %d has role %q; want user, assistant, tool or system", i, m.Role)
		}
	}
	flush()
	return out, nil
}

func userContent(m sdk.Message) any {
	if len(m.Parts) == 0 {
		return m.Content
	}
	var out []chunk
	for _, p := range m.Parts {
		if p.Type == sdk.PartImage {
			out = append(out, chunk{Type: "image_url", ImageURL: "data:" + p.MIMEType + ";base64," + p.Data})
			continue
		}
		out = append(out, chunk{Type: "text", Text: vendor.PartText(p)})
	}
	return out
}

// finishReasons maps Mistral's finish reasons.
var finishReasons = map[string]string{
	"stop": sdk.StopEndTurn, "tool_calls": sdk.StopToolUse, "length": sdk.StopMaxTokens, "model_length": sdk.StopMaxTokens,
}

func fromResponse(cr chatResponse, ep sdk.Endpoint, capt *vendor.Capture) (sdk.ChatResponse, error) {
	if len(cr.Choices) == 0 {
		return sdk.ChatResponse{}, vendor.Malformed(pluginName, ep, capt, "the reply has no choices")
	}
	ch := cr.Choices[0]
	out := sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: contentText(ch.Message.Content)}, Model: cr.Model}
	for _, tc := range ch.Message.ToolCalls {
		args := argsText(tc.Function.Arguments)
		if len(bytes.TrimSpace(args)) == 0 {
			args = []byte(`{}`)
		}
		if !json.Valid(args) {
			return sdk.ChatResponse{}, vendor.Malformed(pluginName, ep, capt, fmt.Sprintf("tool call %q has arguments that are not JSON", tc.Function.Name))
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, sdk.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	out.StopReason = sdk.StopOther
	if ch.FinishReason != nil {
		if s, ok := finishReasons[*ch.FinishReason]; ok {
			out.StopReason = s
		}
	}
	if cr.Usage != nil {
		out.Usage = sdk.Usage{InputTokens: cr.Usage.PromptTokens, OutputTokens: cr.Usage.CompletionTokens, TotalTokens: cr.Usage.TotalTokens}
	}
	return out, nil
}

// Embed calls the embeddings API.
func (p *provider) Embed(ctx context.Context, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	rc, capt, err := p.post(ctx, ep, "/embeddings", embedRequest{Model: req.Model, Input: req.Inputs}, nil)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	defer rc.Close()
	var er embedResponse
	if err := json.NewDecoder(io.LimitReader(rc, maxReplyBytes)).Decode(&er); err != nil {
		return sdk.EmbedResponse{}, vendor.Fail(pluginName, ep, capt, err)
	}
	out := sdk.EmbedResponse{Vectors: make([][]float32, len(req.Inputs))}
	for _, d := range er.Data {
		if d.Index < 0 || d.Index >= len(out.Vectors) {
			return sdk.EmbedResponse{}, vendor.Malformed(pluginName, ep, capt, fmt.Sprintf("embedding index %d is out of range", d.Index))
		}
		out.Vectors[d.Index] = d.Embedding
	}
	for i, v := range out.Vectors {
		if v == nil {
			return sdk.EmbedResponse{}, vendor.Malformed(pluginName, ep, capt, fmt.Sprintf("no embedding for input %d", i))
		}
	}
	if er.Usage != nil {
		out.Usage = sdk.Usage{InputTokens: er.Usage.PromptTokens, TotalTokens: er.Usage.TotalTokens}
	}
	return out, nil
}
