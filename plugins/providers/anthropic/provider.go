package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// defaultMaxTokens is sent when a request sets none: the Messages API
// requires a value, and the suite format's default is 1024.
const defaultMaxTokens = 1024

type provider struct {
	http *http.Client
}

// client is an SDK client for one call's endpoint. SDK retries are off:
// the transport retries, with the configured backoff.
func (p *provider) client(ep sdk.Endpoint) anthropic.Client {
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithAPIKey(ep.APIKey),
		option.WithHTTPClient(p.http), option.WithMaxRetries(0)}
	if ep.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(ep.BaseURL))
	}
	return anthropic.NewClient(opts...)
}

// Complete sends req to the Messages API.
func (p *provider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	if ep.APIKey == "" {
		return sdk.ChatResponse{}, errors.New("anthropic: no key was sent with the call; set ANTHROPIC_API_KEY")
	}
	params, err := toParams(req)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	o, err := vendor.ParseOptions(req.Options)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("anthropic: %w", err)
	}
	var extra []option.RequestOption
	if req.Temperature != nil {
		// The SDK's params have no temperature field; the API takes one.
		extra = append(extra, option.WithJSONSet("temperature", *req.Temperature))
	}
	for _, k := range slices.Sorted(maps.Keys(o.Fields)) {
		extra = append(extra, option.WithJSONSet(k, o.Fields[k]))
	}
	ctx, capt := vendor.WithCapture(ctx)
	c := p.client(ep)
	var msg *anthropic.Message
	if o.Stream {
		s := c.Messages.NewStreaming(ctx, params, extra...)
		acc := anthropic.Message{}
		for s.Next() {
			if err := acc.Accumulate(s.Current()); err != nil {
				s.Close()
				return sdk.ChatResponse{}, vendor.Fail(pluginName, ep, capt, err)
			}
		}
		if err := s.Err(); err != nil {
			return sdk.ChatResponse{}, vendor.Fail(pluginName, ep, capt, err)
		}
		msg = &acc
	} else if msg, err = c.Messages.New(ctx, params, extra...); err != nil {
		return sdk.ChatResponse{}, vendor.Fail(pluginName, ep, capt, err)
	}
	return fromMessage(msg, ep, capt)
}

// Embed is not offered: Anthropic has no embeddings API.
func (p *provider) Embed(context.Context, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, status.Error(codes.Unimplemented,
		"anthropic has no embeddings API; point the similar matcher at an OpenAI, Gemini or Mistral embedding model")
}

// toParams maps the neutral request onto the Messages API.
func toParams(req sdk.ChatRequest) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: defaultMaxTokens}
	if req.MaxTokens > 0 {
		p.MaxTokens = int64(req.MaxTokens)
	}
	system := req.System
	for _, t := range req.Tools {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return p, fmt.Errorf("anthropic: tool %q: %w", t.Name, err)
		}
		tp := &anthropic.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: tp})
	}
	var results []anthropic.ContentBlockParamUnion
	flush := func() {
		if len(results) > 0 {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(results...))
			results = nil
		}
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "tool":
			// Every result of a turn goes back in one user message.
			results = append(results, toolResult(m))
			continue
		case "system":
			system = strings.TrimSpace(system + "\n\n" + m.Content)
			continue
		}
		flush()
		switch m.Role {
		case "user":
			p.Messages = append(p.Messages, anthropic.NewUserMessage(contentBlocks(m)...))
		case "assistant":
			var blocks []anthropic.ContentBlockParamUnion
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, tc := range m.ToolCalls {
				args := tc.Arguments
				if len(args) == 0 {
					args = json.RawMessage(`{}`)
				}
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, args, tc.Name))
			}
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(blocks...))
		default:
			return p, fmt.Errorf("anthropic: message %d has role %q; want user, assistant, tool or system", i, m.Role)
		}
	}
	flush()
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	return p, nil
}

// inputSchema is an MCP tool's input schema as the SDK's type, every
// keyword kept.
func inputSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	var s anthropic.ToolInputSchemaParam
	if len(raw) == 0 {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	s.Properties = m["properties"]
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	delete(m, "properties")
	delete(m, "required")
	delete(m, "type")
	if len(m) > 0 {
		s.ExtraFields = m
	}
	return s, nil
}

// contentBlocks are a user message's blocks: its parts, or its text.
func contentBlocks(m sdk.Message) []anthropic.ContentBlockParamUnion {
	if len(m.Parts) == 0 {
		return []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock(m.Content)}
	}
	var out []anthropic.ContentBlockParamUnion
	for _, part := range m.Parts {
		switch part.Type {
		case sdk.PartImage:
			out = append(out, anthropic.NewImageBlockBase64(part.MIMEType, part.Data))
		default:
			out = append(out, anthropic.NewTextBlock(vendor.PartText(part)))
		}
	}
	return out
}

// toolResult is a tool message as a tool_result block: text, structured
// values as JSON text, images as image blocks, isError as is_error.
func toolResult(m sdk.Message) anthropic.ContentBlockParamUnion {
	b := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.IsError {
		b.IsError = anthropic.Bool(true)
	}
	parts := m.Parts
	if len(parts) == 0 {
		parts = []sdk.Part{{Type: sdk.PartText, Text: m.Content}}
	}
	for _, part := range parts {
		if part.Type == sdk.PartImage {
			b.Content = append(b.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
				Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
					Data: part.Data, MediaType: anthropic.Base64ImageSourceMediaType(part.MIMEType)}}}})
			continue
		}
		b.Content = append(b.Content, anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: vendor.PartText(part)}})
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &b}
}

// stopReasons maps Anthropic's stop reasons.
var stopReasons = map[anthropic.StopReason]string{
	anthropic.StopReasonEndTurn:      sdk.StopEndTurn,
	anthropic.StopReasonToolUse:      sdk.StopToolUse,
	anthropic.StopReasonMaxTokens:    sdk.StopMaxTokens,
	anthropic.StopReasonStopSequence: sdk.StopSequence,
	anthropic.StopReasonRefusal:      sdk.StopContentFilter,
}

// fromMessage maps the reply back.
func fromMessage(msg *anthropic.Message, ep sdk.Endpoint, capt *vendor.Capture) (sdk.ChatResponse, error) {
	if msg.StopReason == "" && len(msg.Content) == 0 {
		return sdk.ChatResponse{}, vendor.Malformed(pluginName, ep, capt, "the reply has no content and no stop reason")
	}
	out := sdk.ChatResponse{Message: sdk.Message{Role: "assistant"}, Model: string(msg.Model)}
	var text strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := b.Input
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			out.Message.ToolCalls = append(out.Message.ToolCalls, sdk.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	out.Message.Content = text.String()
	out.StopReason = stopReasons[msg.StopReason]
	if out.StopReason == "" {
		out.StopReason = sdk.StopOther
	}
	u := msg.Usage
	out.Usage = sdk.Usage{InputTokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens, OutputTokens: u.OutputTokens}
	return out, nil
}
