package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// answer is one scripted answer of the fake host: a reply text, vectors,
// or an error.
type answer struct {
	text    string
	vectors [][]float32
	err     error
	cost    *float64
}

// fakeHost answers model calls from per-model queues and records the
// requests, as mcptest's Host service would route them to providers.
type fakeHost struct {
	mu      sync.Mutex
	queues  map[string][]answer
	chats   []sdk.ChatRequest
	embeds  []sdk.EmbedRequest
	noKey   map[string]string // model -> variable
	unknown bool
}

func newFakeHost() *fakeHost {
	return &fakeHost{queues: map[string][]answer{}, noKey: map[string]string{}}
}

// push queues answers for model.
func (h *fakeHost) push(model string, as ...answer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queues[model] = append(h.queues[model], as...)
}

func (h *fakeHost) next(model string) (answer, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v, ok := h.noKey[model]; ok {
		return answer{}, fmt.Errorf("model %q has no key: set %s: %w", model, v, sdk.ErrNoModelKey)
	}
	q := h.queues[model]
	if len(q) == 0 {
		return answer{}, fmt.Errorf("fake host: no answer queued for %q", model)
	}
	h.queues[model] = q[1:]
	return q[0], q[0].err
}

func (h *fakeHost) Complete(_ context.Context, _ string, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	h.mu.Lock()
	h.chats = append(h.chats, req)
	h.mu.Unlock()
	a, err := h.next(req.Model)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: a.text}, Usage: sdk.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: a.cost}}, nil
}

func (h *fakeHost) Embed(_ context.Context, _ string, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	h.mu.Lock()
	h.embeds = append(h.embeds, req)
	h.mu.Unlock()
	a, err := h.next(req.Model)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	return sdk.EmbedResponse{Vectors: a.vectors}, nil
}

// pending is the number of answers not yet given.
func (h *fakeHost) pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, q := range h.queues {
		n += len(q)
	}
	return n
}

// conn serves the plugin in-process over real gRPC with host as its Host.
func conn(t *testing.T, host sdk.Host) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), host)
}

// match sends one item and returns its result.
func match(t *testing.T, c *plugintest.Conn, key string, actual, arg any) plugintest.MatchItemResult {
	t.Helper()
	a, _ := json.Marshal(actual)
	g, _ := json.Marshal(arg)
	res, err := c.Matcher.Match(context.Background(), []plugintest.MatchItem{{ID: 1, Key: key, Actual: a, Argument: g}})
	if err != nil || len(res) != 1 {
		t.Fatalf("match: %v %+v", err, res)
	}
	return res[0]
}

// reply is a judge reply in the requested shape.
func reply(score float64, pass bool, reason string) answer {
	b, _ := json.Marshal(map[string]any{"score": score, "pass": pass, "reason": reason})
	return answer{text: string(b)}
}

// failureOf decodes a result's failure.
func failureOf(t *testing.T, r plugintest.MatchItemResult) map[string]any {
	t.Helper()
	var f map[string]any
	if err := json.Unmarshal(r.Failure, &f); err != nil {
		t.Fatalf("failure %q: %v", r.Failure, err)
	}
	return f
}

// plugintestCheckItem is one argument to check.
type plugintestCheckItem = plugintest.CheckItem
