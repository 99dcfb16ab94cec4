package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

type provider struct {
	http *http.Client
}

// client is an SDK client for one call's endpoint; retries are the
// transport's (the SDK retries only when asked).
func (p *provider) client(ctx context.Context, ep sdk.Endpoint) (*genai.Client, error) {
	if ep.APIKey == "" {
		return nil, errors.New("gemini: no key was sent with the call; set GEMINI_API_KEY or GOOGLE_API_KEY")
	}
	cc := &genai.ClientConfig{APIKey: ep.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: p.http}
	if ep.BaseURL != "" {
		cc.HTTPOptions.BaseURL = ep.BaseURL
	}
	c, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini: %s", vendor.Mask(ep, err.Error()))
	}
	return c, nil
}

// Complete sends req to generateContent.
func (p *provider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	c, err := p.client(ctx, ep)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	contents, cfg, err := toContents(req)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	o, err := vendor.ParseOptions(req.Options)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("gemini: %w", err)
	}
	if len(o.Fields) > 0 {
		cfg.HTTPOptions = &genai.HTTPOptions{ExtraBody: o.Fields}
	}
	ctx, capt := vendor.WithCapture(ctx)
	var resp *genai.GenerateContentResponse
	if o.Stream {
		resp, err = accumulate(c.Models.GenerateContentStream(ctx, req.Model, contents, cfg))
	} else {
		resp, err = c.Models.GenerateContent(ctx, req.Model, contents, cfg)
	}
	if err != nil {
		return sdk.ChatResponse{}, vendor.Fail(pluginName, ep, capt, err)
	}
	return fromResponse(resp, turn(req.Messages), ep, capt)
}

// accumulate joins a stream's chunks into one response: the parts in
// order, the last finish reason and usage.
func accumulate(seq func(func(*genai.GenerateContentResponse, error) bool)) (*genai.GenerateContentResponse, error) {
	out := &genai.GenerateContentResponse{}
	cand := &genai.Candidate{Content: &genai.Content{Role: genai.RoleModel}}
	var failed error
	seq(func(chunk *genai.GenerateContentResponse, err error) bool {
		if err != nil {
			failed = err
			return false
		}
		if chunk.ModelVersion != "" {
			out.ModelVersion = chunk.ModelVersion
		}
		if chunk.UsageMetadata != nil {
			out.UsageMetadata = chunk.UsageMetadata
		}
		if chunk.PromptFeedback != nil {
			out.PromptFeedback = chunk.PromptFeedback
		}
		if len(chunk.Candidates) > 0 {
			c := chunk.Candidates[0]
			if c.Content != nil {
				cand.Content.Parts = append(cand.Content.Parts, c.Content.Parts...)
			}
			if c.FinishReason != "" {
				cand.FinishReason = c.FinishReason
			}
		}
		return true
	})
	if failed != nil {
		return nil, failed
	}
	if len(cand.Content.Parts) > 0 || cand.FinishReason != "" {
		out.Candidates = []*genai.Candidate{cand}
	}
	return out, nil
}

// turn is the number of model turns so far, which makes generated call
// ids unique within a conversation.
func turn(msgs []sdk.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// toContents maps the neutral request onto contents and a config.
func toContents(req sdk.ChatRequest) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	cfg := &genai.GenerateContentConfig{}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}
	if req.Temperature != nil {
		t := float32(*req.Temperature)
		cfg.Temperature = &t
	}
	system := req.System
	var decls []*genai.FunctionDeclaration
	for _, t := range req.Tools {
		d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if len(t.InputSchema) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
				return nil, nil, fmt.Errorf("gemini: tool %q: input schema is not a JSON object: %w", t.Name, err)
			}
			d.ParametersJsonSchema = schema
		}
		decls = append(decls, d)
	}
	if len(decls) > 0 {
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	var contents []*genai.Content
	var results []*genai.Part
	flush := func() {
		if len(results) > 0 {
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: results})
			results = nil
		}
	}
	names := map[string]string{}
	for i, m := range req.Messages {
		if m.Role == "tool" {
			part, err := functionResponse(m, names)
			if err != nil {
				return nil, nil, err
			}
			results = append(results, part)
			continue
		}
		flush()
		switch m.Role {
		case "system":
			system = strings.TrimSpace(system + "\n\n" + m.Content)
		case "user":
			parts, err := userParts(m)
			if err != nil {
				return nil, nil, err
			}
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: parts})
		case "assistant":
			var parts []*genai.Part
			if m.Content != "" {
				parts = append(parts, genai.NewPartFromText(m.Content))
			}
			for _, tc := range m.ToolCalls {
				var args map[string]any
				if len(tc.Arguments) > 0 {
					if err := json.Unmarshal(tc.Arguments, &args); err != nil {
						return nil, nil, fmt.Errorf("gemini: message %d: arguments of %q are not a JSON object: %w", i, tc.Name, err)
					}
				}
				names[tc.ID] = tc.Name
				parts = append(parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: tc.ID, Name: tc.Name, Args: args}})
			}
			contents = append(contents, &genai.Content{Role: genai.RoleModel, Parts: parts})
		default:
			return nil, nil, fmt.Errorf("gemini: message %d has role %q; want user, assistant, tool or system", i, m.Role)
		}
	}
	flush()
	if system != "" {
		cfg.SystemInstruction = genai.NewContentFromText(system, genai.RoleUser)
	}
	return contents, cfg, nil
}

func userParts(m sdk.Message) ([]*genai.Part, error) {
	if len(m.Parts) == 0 {
		return []*genai.Part{genai.NewPartFromText(m.Content)}, nil
	}
	var out []*genai.Part
	for _, p := range m.Parts {
		if p.Type == sdk.PartImage {
			data, err := base64.StdEncoding.DecodeString(p.Data)
			if err != nil {
				return nil, fmt.Errorf("gemini: image part is not base64: %w", err)
			}
			out = append(out, &genai.Part{InlineData: &genai.Blob{MIMEType: p.MIMEType, Data: data}})
			continue
		}
		out = append(out, genai.NewPartFromText(vendor.PartText(p)))
	}
	return out, nil
}

// functionResponse is a tool message as a functionResponse part.
func functionResponse(m sdk.Message, names map[string]string) (*genai.Part, error) {
	name := m.ToolName
	if name == "" {
		name = names[m.ToolCallID]
	}
	if name == "" {
		return nil, fmt.Errorf("gemini: the tool result for call %q names no tool, and no earlier call has that id", m.ToolCallID)
	}
	fr := &genai.FunctionResponse{ID: m.ToolCallID, Name: name}
	var texts []string
	var structured any
	if len(m.Parts) == 0 {
		texts = append(texts, m.Content)
	}
	for _, p := range m.Parts {
		switch p.Type {
		case sdk.PartImage:
			data, err := base64.StdEncoding.DecodeString(p.Data)
			if err != nil {
				return nil, fmt.Errorf("gemini: image of tool result %q is not base64: %w", m.ToolCallID, err)
			}
			fr.Parts = append(fr.Parts, &genai.FunctionResponsePart{InlineData: &genai.FunctionResponseBlob{MIMEType: p.MIMEType, Data: data}})
		case sdk.PartJSON:
			if err := json.Unmarshal(p.JSON, &structured); err != nil {
				return nil, fmt.Errorf("gemini: structured content of tool result %q is not JSON: %w", m.ToolCallID, err)
			}
		default:
			texts = append(texts, p.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if m.IsError {
		fr.Response = map[string]any{"error": text}
	} else {
		fr.Response = map[string]any{"output": text}
		if structured != nil {
			fr.Response["structuredContent"] = structured
		}
	}
	return &genai.Part{FunctionResponse: fr}, nil
}

// fromResponse maps the reply back.
func fromResponse(resp *genai.GenerateContentResponse, turn int, ep sdk.Endpoint, capt *vendor.Capture) (sdk.ChatResponse, error) {
	out := sdk.ChatResponse{Message: sdk.Message{Role: "assistant"}, Model: resp.ModelVersion}
	if u := resp.UsageMetadata; u != nil {
		out.Usage = sdk.Usage{InputTokens: int64(u.PromptTokenCount) + int64(u.ToolUsePromptTokenCount),
			OutputTokens: int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount), TotalTokens: int64(u.TotalTokenCount)}
	}
	if len(resp.Candidates) == 0 {
		if resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
			out.StopReason = sdk.StopContentFilter
			return out, nil
		}
		return sdk.ChatResponse{}, vendor.Malformed(pluginName, ep, capt, "the reply has no candidates")
	}
	c := resp.Candidates[0]
	var text strings.Builder
	if c.Content != nil {
		for _, p := range c.Content.Parts {
			switch {
			case p.FunctionCall != nil:
				id := p.FunctionCall.ID
				if id == "" {
					id = fmt.Sprintf("call_%d_%d", turn+1, len(out.Message.ToolCalls)+1)
				}
				args, err := json.Marshal(p.FunctionCall.Args)
				if err != nil || p.FunctionCall.Args == nil {
					args = []byte(`{}`)
				}
				out.Message.ToolCalls = append(out.Message.ToolCalls, sdk.ToolCall{ID: id, Name: p.FunctionCall.Name, Arguments: args})
			case p.Text != "" && !p.Thought:
				text.WriteString(p.Text)
			}
		}
	}
	out.Message.Content = text.String()
	out.StopReason = stopReason(c.FinishReason, len(out.Message.ToolCalls) > 0)
	return out, nil
}

func stopReason(r genai.FinishReason, calls bool) string {
	switch r {
	case genai.FinishReasonStop, "":
		if calls {
			return sdk.StopToolUse
		}
		return sdk.StopEndTurn
	case genai.FinishReasonMaxTokens:
		return sdk.StopMaxTokens
	case genai.FinishReasonSafety, genai.FinishReasonProhibitedContent, genai.FinishReasonBlocklist, genai.FinishReasonSPII,
		genai.FinishReasonRecitation, genai.FinishReasonImageSafety:
		return sdk.StopContentFilter
	}
	return sdk.StopOther
}

// Embed calls the embeddings API, one content per input.
func (p *provider) Embed(ctx context.Context, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	c, err := p.client(ctx, ep)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	contents := make([]*genai.Content, len(req.Inputs))
	for i, in := range req.Inputs {
		contents[i] = genai.NewContentFromText(in, genai.RoleUser)
	}
	ctx, capt := vendor.WithCapture(ctx)
	resp, err := c.Models.EmbedContent(ctx, req.Model, contents, nil)
	if err != nil {
		return sdk.EmbedResponse{}, vendor.Fail(pluginName, ep, capt, err)
	}
	if len(resp.Embeddings) != len(req.Inputs) {
		return sdk.EmbedResponse{}, vendor.Malformed(pluginName, ep, capt, fmt.Sprintf("%d embeddings for %d inputs", len(resp.Embeddings), len(req.Inputs)))
	}
	out := sdk.EmbedResponse{Vectors: make([][]float32, len(resp.Embeddings))}
	for i, e := range resp.Embeddings {
		out.Vectors[i] = e.Values
	}
	return out, nil
}
