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

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

type provider struct {
	http *http.Client
}

// family names the endpoint in messages: the providers: entry, or openai.
func family(ep sdk.Endpoint) string {
	if ep.Name != "" {
		return "openai-compatible provider " + ep.Name
	}
	return pluginName
}

// client is an SDK client for one call's endpoint; retries are the
// transport's.
func (p *provider) client(ep sdk.Endpoint) (openai.Client, error) {
	if ep.APIKey == "" {
		return openai.Client{}, errors.New("openai: no key was sent with the call; set OPENAI_API_KEY")
	}
	opts := []option.RequestOption{option.WithAPIKey(ep.APIKey), option.WithHTTPClient(p.http), option.WithMaxRetries(0)}
	if ep.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(ep.BaseURL))
	}
	if ep.Organization != "" {
		opts = append(opts, option.WithOrganization(ep.Organization))
	}
	return openai.NewClient(opts...), nil
}

// Complete sends req to Chat Completions.
func (p *provider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	c, err := p.client(ep)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	params, err := toParams(req, ep.Name != "")
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	o, err := vendor.ParseOptions(req.Options)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("openai: %w", err)
	}
	var extra []option.RequestOption
	for _, k := range slices.Sorted(maps.Keys(o.Fields)) {
		extra = append(extra, option.WithJSONSet(k, o.Fields[k]))
	}
	ctx, capt := vendor.WithCapture(ctx)
	fam := family(ep)
	var cc *openai.ChatCompletion
	if o.Stream {
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		s := c.Chat.Completions.NewStreaming(ctx, params, extra...)
		acc := openai.ChatCompletionAccumulator{}
		for s.Next() {
			acc.AddChunk(s.Current())
		}
		if err := s.Err(); err != nil {
			return sdk.ChatResponse{}, vendor.Fail(fam, ep, capt, err)
		}
		cc = &acc.ChatCompletion
	} else if cc, err = c.Chat.Completions.New(ctx, params, extra...); err != nil {
		return sdk.ChatResponse{}, vendor.Fail(fam, ep, capt, err)
	}
	return fromCompletion(cc, fam, ep, capt)
}

// toParams maps the neutral request onto Chat Completions; compatible
// endpoints get max_tokens, OpenAI max_completion_tokens.
func toParams(req sdk.ChatRequest, compatible bool) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(req.Model)}
	if req.MaxTokens > 0 {
		if compatible {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for _, t := range req.Tools {
		fd := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		if len(t.InputSchema) > 0 {
			var params shared.FunctionParameters
			if err := json.Unmarshal(t.InputSchema, &params); err != nil {
				return p, fmt.Errorf("openai: tool %q: input schema is not a JSON object: %w", t.Name, err)
			}
			fd.Parameters = params
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fd))
	}
	// Images of tool results wait for the end of the turn's tool messages.
	var images []openai.ChatCompletionContentPartUnionParam
	flush := func() {
		if len(images) > 0 {
			parts := append([]openai.ChatCompletionContentPartUnionParam{openai.TextContentPart("Images returned by the tool calls above:")}, images...)
			p.Messages = append(p.Messages, openai.UserMessage(parts))
			images = nil
		}
	}
	for i, m := range req.Messages {
		if m.Role != "tool" {
			flush()
		}
		switch m.Role {
		case "system":
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case "user":
			p.Messages = append(p.Messages, userMessage(m))
		case "assistant":
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				args := string(tc.Arguments)
				if args == "" {
					args = "{}"
				}
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: args}}})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case "tool":
			text, imgs := toolResult(m)
			images = append(images, imgs...)
			p.Messages = append(p.Messages, openai.ToolMessage(text, m.ToolCallID))
		default:
			return p, fmt.Errorf("openai: message %d has role %q; want user, assistant, tool or system", i, m.Role)
		}
	}
	flush()
	return p, nil
}

func imagePart(part sdk.Part) openai.ChatCompletionContentPartUnionParam {
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "data:" + part.MIMEType + ";base64," + part.Data})
}

func userMessage(m sdk.Message) openai.ChatCompletionMessageParamUnion {
	if len(m.Parts) == 0 {
		return openai.UserMessage(m.Content)
	}
	var parts []openai.ChatCompletionContentPartUnionParam
	for _, part := range m.Parts {
		if part.Type == sdk.PartImage {
			parts = append(parts, imagePart(part))
			continue
		}
		parts = append(parts, openai.TextContentPart(vendor.PartText(part)))
	}
	return openai.UserMessage(parts)
}

// toolResult is a tool message's text (marked when isError) and its images.
func toolResult(m sdk.Message) (string, []openai.ChatCompletionContentPartUnionParam) {
	var texts []string
	var images []openai.ChatCompletionContentPartUnionParam
	if len(m.Parts) == 0 {
		texts = append(texts, m.Content)
	}
	for _, part := range m.Parts {
		if part.Type == sdk.PartImage {
			images = append(images, imagePart(part))
			continue
		}
		texts = append(texts, vendor.PartText(part))
	}
	text := strings.Join(texts, "\n")
	if m.IsError {
		text = "Error: " + text
	}
	return text, images
}

// finishReasons maps Chat Completions' finish reasons.
var finishReasons = map[string]string{
	"stop": sdk.StopEndTurn, "tool_calls": sdk.StopToolUse, "function_call": sdk.StopToolUse,
	"length": sdk.StopMaxTokens, "content_filter": sdk.StopContentFilter,
}

func fromCompletion(cc *openai.ChatCompletion, fam string, ep sdk.Endpoint, capt *vendor.Capture) (sdk.ChatResponse, error) {
	if len(cc.Choices) == 0 {
		return sdk.ChatResponse{}, vendor.Malformed(fam, ep, capt, "the reply has no choices")
	}
	ch := cc.Choices[0]
	out := sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: ch.Message.Content}, Model: cc.Model}
	for _, tc := range ch.Message.ToolCalls {
		args := tc.Function.Arguments
		if args == "" {
			args = "{}"
		}
		if !json.Valid([]byte(args)) {
			return sdk.ChatResponse{}, vendor.Malformed(fam, ep, capt, fmt.Sprintf("tool call %q has arguments that are not JSON", tc.Function.Name))
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, sdk.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(args)})
	}
	out.StopReason = finishReasons[ch.FinishReason]
	if out.StopReason == "" {
		out.StopReason = sdk.StopOther
	}
	out.Usage = sdk.Usage{InputTokens: cc.Usage.PromptTokens, OutputTokens: cc.Usage.CompletionTokens, TotalTokens: cc.Usage.TotalTokens}
	return out, nil
}

// Embed calls the embeddings API.
func (p *provider) Embed(ctx context.Context, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	c, err := p.client(ep)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	ctx, capt := vendor.WithCapture(ctx)
	fam := family(ep)
	resp, err := c.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: openai.EmbeddingModel(req.Model),
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: req.Inputs}})
	if err != nil {
		return sdk.EmbedResponse{}, vendor.Fail(fam, ep, capt, err)
	}
	out := sdk.EmbedResponse{Vectors: make([][]float32, len(req.Inputs)),
		Usage: sdk.Usage{InputTokens: resp.Usage.PromptTokens, TotalTokens: resp.Usage.TotalTokens}}
	for _, d := range resp.Data {
		if d.Index < 0 || int(d.Index) >= len(out.Vectors) {
			return sdk.EmbedResponse{}, vendor.Malformed(fam, ep, capt, fmt.Sprintf("embedding index %d is out of range", d.Index))
		}
		v := make([]float32, len(d.Embedding))
		for i, x := range d.Embedding {
			v[i] = float32(x)
		}
		out.Vectors[d.Index] = v
	}
	for i, v := range out.Vectors {
		if v == nil {
			return sdk.EmbedResponse{}, vendor.Malformed(fam, ep, capt, fmt.Sprintf("no embedding for input %d", i))
		}
	}
	return out, nil
}
