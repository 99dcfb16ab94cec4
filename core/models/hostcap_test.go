package models

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/sdk"
)

// countingCaller answers every call with fixed usage and records the
// requests it got; it prices "priced" and no other model.
type countingCaller struct {
	mu     sync.Mutex
	chats  []sdk.ChatRequest
	embeds int
}

func (c *countingCaller) Complete(_ context.Context, _ config.ModelRef, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chats = append(c.chats, req)
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: "answer"},
		Usage: sdk.Usage{InputTokens: 1000, OutputTokens: 1000}}, nil
}

func (c *countingCaller) Embed(context.Context, config.ModelRef, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.embeds++
	return sdk.EmbedResponse{Vectors: [][]float32{{1}}, Usage: sdk.Usage{InputTokens: 1000}}, nil
}

func (c *countingCaller) Price(ref config.ModelRef) (sdk.ModelPrice, bool) {
	if ref.ID != "priced" {
		return sdk.ModelPrice{}, false
	}
	return sdk.ModelPrice{Model: "priced", InputPerMTok: 1, OutputPerMTok: 2}, true
}

func chat(model string, seat *sdk.Seat) sdk.ChatRequest {
	return sdk.ChatRequest{Model: model, Messages: []sdk.Message{{Role: "user", Content: "grade this"}}, MaxTokens: 100, Seat: seat}
}

// TestHostCapRefusesBeforeCalling: over the cap, and an unpriced model
// under any cap, are refused without a call; within it the call is made,
// priced and settled at its real cost.
func TestHostCapRefusesBeforeCalling(t *testing.T) {
	ctx := context.Background()
	c := &countingCaller{}
	h := &HostService{Caller: c, Cap: costcap.New(0.000001)}
	if _, err := h.Complete(ctx, "", chat("priced", nil)); !errors.Is(err, costcap.ErrMaxCost) || !errors.Is(err, sdk.ErrCostCap) {
		t.Fatalf("over the cap: %v", err)
	}
	if _, err := h.Embed(ctx, "", sdk.EmbedRequest{Model: "priced", Inputs: []string{"a long enough text to cost something"}}); !errors.Is(err, costcap.ErrMaxCost) {
		t.Fatalf("embed over the cap: %v", err)
	}
	h.Cap = costcap.New(1)
	if _, err := h.Complete(ctx, "", chat("unpriced", nil)); !errors.Is(err, costcap.ErrUnpriced) || !errors.Is(err, sdk.ErrCostCap) {
		t.Fatalf("unpriced: %v", err)
	}
	if len(c.chats) != 0 || c.embeds != 0 {
		t.Fatalf("refused calls reached the model: %d chats, %d embeds", len(c.chats), c.embeds)
	}
	resp, err := h.Complete(ctx, "", chat("priced", nil))
	if err != nil || resp.Usage.CostUSD == nil {
		t.Fatalf("within the cap: %+v, %v", resp, err)
	}
	// 1000 input tokens at $1/M and 1000 output at $2/M.
	if want := 0.003; *resp.Usage.CostUSD != want || h.Cap.Spent() != want {
		t.Fatalf("cost %v, spent %v; want %v", *resp.Usage.CostUSD, h.Cap.Spent(), want)
	}
}

// TestHostCacheSeats: an identical request is answered from the cache at
// no cost; another juror or trial is a new call; the seat never reaches
// the caller.
func TestHostCacheSeats(t *testing.T) {
	ctx := context.Background()
	c := &countingCaller{}
	h := &HostService{Caller: c, Cache: verdictcache.New(t.TempDir())}
	first, err := h.Complete(ctx, "", chat("priced", &sdk.Seat{Juror: 1}))
	if err != nil || first.Cached {
		t.Fatalf("first: %+v, %v", first, err)
	}
	again, err := h.Complete(ctx, "", chat("priced", &sdk.Seat{Juror: 1}))
	if err != nil || !again.Cached || again.Usage.CostUSD == nil || *again.Usage.CostUSD != 0 || again.Message.Content != "answer" {
		t.Fatalf("repeat: %+v, %v", again, err)
	}
	for _, seat := range []*sdk.Seat{nil, {Juror: 2}, {Juror: 1, Trial: 2}} {
		if resp, err := h.Complete(ctx, "", chat("priced", seat)); err != nil || resp.Cached {
			t.Fatalf("seat %+v: %+v, %v", seat, resp, err)
		}
	}
	if len(c.chats) != 4 {
		t.Fatalf("%d calls, want 4", len(c.chats))
	}
	for _, r := range c.chats {
		if r.Seat != nil {
			t.Fatalf("the seat reached the caller: %+v", r.Seat)
		}
	}
}
