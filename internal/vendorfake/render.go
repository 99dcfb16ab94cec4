package vendorfake

import (
	"strings"
)

// Stop reasons per vendor, from the neutral names of Reply.Stop.
var stops = map[string]map[string]string{
	Anthropic: {"end_turn": "end_turn", "tool_use": "tool_use", "max_tokens": "max_tokens", "content_filter": "refusal"},
	OpenAI:    {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "content_filter": "content_filter"},
	Mistral:   {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "content_filter": "error"},
	Gemini:    {"end_turn": "STOP", "tool_use": "STOP", "max_tokens": "MAX_TOKENS", "content_filter": "SAFETY"},
}

func (f *Fake) stop(r Reply) string {
	if s, ok := stops[f.vendor][r.Stop]; ok {
		return s
	}
	return r.Stop
}

// chatBody renders a non-streaming chat reply.
func (f *Fake) chatBody(r Reply) any {
	switch f.vendor {
	case Anthropic:
		content := []any{}
		if r.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": r.Text})
		}
		for _, c := range r.Calls {
			content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": args(c)})
		}
		return map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": r.Model,
			"content": content, "stop_reason": f.stop(r), "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": r.InputTokens, "output_tokens": r.OutputTokens}}
	case Gemini:
		return f.geminiChunk(r, r.Text, r.Calls, true)
	}
	// OpenAI and Mistral share the chat completion shape.
	msg := map[string]any{"role": "assistant", "content": nilIfEmpty(r.Text)}
	if len(r.Calls) > 0 {
		msg["tool_calls"] = f.openAICalls(r.Calls, false)
	}
	return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": r.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": f.stop(r)}},
		"usage":   openAIUsage(r)}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func openAIUsage(r Reply) map[string]any {
	return map[string]any{"prompt_tokens": r.InputTokens, "completion_tokens": r.OutputTokens, "total_tokens": r.InputTokens + r.OutputTokens}
}

// openAICalls renders tool calls; in a stream each carries its index.
func (f *Fake) openAICalls(calls []Call, indexed bool) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		m := map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}}
		if indexed {
			m["index"] = i
		}
		out[i] = m
	}
	return out
}

func (f *Fake) geminiChunk(r Reply, text string, calls []Call, final bool) map[string]any {
	parts := []any{}
	if text != "" {
		parts = append(parts, map[string]any{"text": text})
	}
	for _, c := range calls {
		fc := map[string]any{"name": c.Name, "args": args(c)}
		if c.ID != "" {
			fc["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": fc})
	}
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	out := map[string]any{"candidates": []any{cand}, "modelVersion": strings.TrimPrefix(r.Model, "models/")}
	if final {
		cand["finishReason"] = f.stop(r)
		out["usageMetadata"] = map[string]any{"promptTokenCount": r.InputTokens, "candidatesTokenCount": r.OutputTokens, "totalTokenCount": r.InputTokens + r.OutputTokens}
	}
	return out
}

// halves splits text in two, so a stream carries it in several deltas.
func halves(s string) []string {
	if len(s) < 2 {
		return []string{s}
	}
	return []string{s[:len(s)/2], s[len(s)/2:]}
}

// streamEvents renders a chat reply as the vendor's event stream.
func (f *Fake) streamEvents(r Reply) []event {
	var evs []event
	switch f.vendor {
	case Anthropic:
		add := func(name string, v any) { evs = append(evs, event{name, mustJSON(v)}) }
		add("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_fake", "type": "message", "role": "assistant",
			"model": r.Model, "content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": r.InputTokens, "output_tokens": 0}}})
		idx := 0
		if r.Text != "" {
			add("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, h := range halves(r.Text) {
				add("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": h}})
			}
			add("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		for _, c := range r.Calls {
			add("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}})
			for _, h := range halves(c.Args) {
				add("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": h}})
			}
			add("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		add("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": f.stop(r), "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": r.OutputTokens}})
		add("message_stop", map[string]any{"type": "message_stop"})
	case Gemini:
		parts := halves(r.Text)
		for i, h := range parts {
			last := i == len(parts)-1
			var calls []Call
			if last {
				calls = r.Calls
			}
			evs = append(evs, event{"", mustJSON(f.geminiChunk(r, h, calls, last))})
		}
	default:
		chunk := func(delta map[string]any, finish any, usage any) {
			c := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": r.Model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
			if usage != nil {
				c["usage"] = usage
			}
			evs = append(evs, event{"", mustJSON(c)})
		}
		chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
		if r.Text != "" {
			for _, h := range halves(r.Text) {
				chunk(map[string]any{"content": h}, nil, nil)
			}
		}
		if len(r.Calls) > 0 {
			chunk(map[string]any{"tool_calls": f.openAICalls(r.Calls, true)}, nil, nil)
		}
		chunk(map[string]any{}, f.stop(r), openAIUsage(r))
		evs = append(evs, event{"", "[DONE]"})
	}
	return evs
}

// embedBody renders an embeddings reply with one vector per input.
func (f *Fake) embedBody(r Reply, req map[string]any, rt route) any {
	switch f.vendor {
	case Gemini:
		if _, batch := req["requests"]; batch {
			embs := make([]any, len(r.Vectors))
			for i, v := range r.Vectors {
				embs[i] = map[string]any{"values": v}
			}
			return map[string]any{"embeddings": embs}
		}
		var v []float32
		if len(r.Vectors) > 0 {
			v = r.Vectors[0]
		}
		return map[string]any{"embedding": map[string]any{"values": v}}
	}
	data := make([]any, len(r.Vectors))
	for i, v := range r.Vectors {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
	}
	return map[string]any{"object": "list", "data": data, "model": r.Model, "id": "embd-fake",
		"usage": map[string]any{"prompt_tokens": r.InputTokens, "total_tokens": r.InputTokens}}
}
