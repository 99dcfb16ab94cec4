package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/sdk"
)

// Pricer prices a model by reference; *Router is one.
type Pricer interface {
	Price(ref config.ModelRef) (sdk.ModelPrice, bool)
}

// cachedComplete answers a plugin's chat request from the verdict cache
// when an identical one (same model, same request, same seat) was
// answered before, in this run or, with a cache folder, an earlier one;
// otherwise it makes the call under the cap and remembers the masked
// response. A cached answer costs nothing and says so (Cached).
func (h *HostService) cachedComplete(ctx context.Context, ref config.ModelRef, req sdk.ChatRequest, seat sdk.Seat) (sdk.ChatResponse, error) {
	if h.Cache == nil {
		return h.cappedComplete(ctx, ref, req)
	}
	key, err := hostKey(ref, req, seat)
	if err != nil {
		return h.cappedComplete(ctx, ref, req)
	}
	raw, hit, done, err := h.Cache.BeginResponse(ctx, key)
	if err != nil {
		return sdk.ChatResponse{}, fmt.Errorf("model %s: %w", ref.ID, err)
	}
	if hit {
		var resp sdk.ChatResponse
		if json.Unmarshal(raw, &resp) == nil {
			zero := 0.0
			resp.Usage.CostUSD, resp.Cached = &zero, true
			return resp, nil
		}
		// An entry that no longer decodes is a miss, not a failure.
		return h.cappedComplete(ctx, ref, req)
	}
	resp, err := h.cappedComplete(ctx, ref, req)
	if err != nil {
		done(nil)
		return resp, err
	}
	stored, merr := json.Marshal(resp)
	if merr != nil {
		done(nil)
		return resp, nil
	}
	if h.Redact != nil {
		stored = h.Redact.Bytes(stored)
	}
	done(stored)
	return resp, nil
}

// hostKey is the verdict-cache key of a plugin's request: its model, a
// digest of the whole request (the request itself is never stored) and
// its seat.
func hostKey(ref config.ModelRef, req sdk.ChatRequest, seat sdk.Seat) (verdictcache.Key, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return verdictcache.Key{}, fmt.Errorf("encode request: %w", err)
	}
	sum := sha256.Sum256(raw)
	model := ref.ID
	if ref.Provider != "" {
		model = ref.Provider + "/" + ref.ID
	}
	return verdictcache.Key{Kind: verdictcache.KindHost, Model: model, Prompt: hex.EncodeToString(sum[:]),
		Juror: seat.Juror, Trial: seat.Trial}, nil
}

// cappedComplete makes one chat call under the run's --max-cost cap:
// admitted against costcap's estimate of its most expensive outcome,
// settled at what it really cost. A model without a price is refused
// under a cap, as core/judge refuses it.
func (h *HostService) cappedComplete(ctx context.Context, ref config.ModelRef, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	return capped(ctx, h, ref, req, func() (sdk.ChatResponse, error) {
		return h.Caller.Complete(ctx, ref, req)
	}, func(r *sdk.ChatResponse) *sdk.Usage { return &r.Usage })
}

// capped makes one call under the cap: admitted against the estimate of
// est, settled at the usage the answer reports (usage finds it inside the
// answer, and it is priced there when its provider did not price it).
func capped[T any](ctx context.Context, h *HostService, ref config.ModelRef, est sdk.ChatRequest, call func() (T, error), usage func(*T) *sdk.Usage) (T, error) {
	var zero T
	res, err := h.reserve(ref, est)
	if err != nil {
		return zero, err
	}
	if err := ctx.Err(); err != nil {
		res.Release()
		return zero, err
	}
	resp, err := call()
	if err != nil {
		res.Settle(nil)
		return resp, err
	}
	u := usage(&resp)
	h.priceUsage(ref, u)
	res.Settle(u.CostUSD)
	return resp, nil
}

// reserve admits a call estimated as req against the cap; without a cap
// it admits everything and looks up no price. A refusal also matches
// sdk.ErrCostCap, which crosses the wire, so the plugin can tell it apart.
func (h *HostService) reserve(ref config.ModelRef, req sdk.ChatRequest) (*costcap.Reservation, error) {
	if h.Cap == nil {
		return h.Cap.Reserve(ref.ID, 0, true)
	}
	price, priced := h.price(ref)
	var estimate float64
	if priced {
		estimate = costcap.Estimate(req, price)
	}
	res, err := h.Cap.Reserve(ref.ID, estimate, priced)
	if err != nil {
		return nil, capRefusal{err}
	}
	return res, nil
}

// capRefusal is the cap's error, worded as the cap worded it, that also
// matches sdk.ErrCostCap.
type capRefusal struct{ err error }

func (e capRefusal) Error() string   { return e.err.Error() }
func (e capRefusal) Unwrap() []error { return []error{e.err, sdk.ErrCostCap} }

// priceUsage fills in the cost of an answered call whose provider did
// not price it, when the model has a price.
func (h *HostService) priceUsage(ref config.ModelRef, u *sdk.Usage) {
	if u.CostUSD != nil {
		return
	}
	if p, ok := h.price(ref); ok {
		c := p.Cost(*u)
		u.CostUSD = &c
	}
}

// cappedEmbed makes one embedding call under the cap; its inputs are
// estimated as the prompt of a chat request with no completion, so the
// one estimate of costcap serves both.
func (h *HostService) cappedEmbed(ctx context.Context, ref config.ModelRef, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	as := sdk.ChatRequest{Model: req.Model, Messages: make([]sdk.Message, len(req.Inputs))}
	for i, in := range req.Inputs {
		as.Messages[i] = sdk.Message{Role: "user", Content: in}
	}
	return capped(ctx, h, ref, as, func() (sdk.EmbedResponse, error) {
		return h.Caller.Embed(ctx, ref, req)
	}, func(r *sdk.EmbedResponse) *sdk.Usage { return &r.Usage })
}

// price is ref's price from Pricer, or from the Caller when it prices.
func (h *HostService) price(ref config.ModelRef) (sdk.ModelPrice, bool) {
	p := h.Pricer
	if p == nil {
		p, _ = h.Caller.(Pricer)
	}
	if p == nil {
		return sdk.ModelPrice{}, false
	}
	return p.Price(ref)
}
