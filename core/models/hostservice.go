package models

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

// Caller makes model calls by reference; *Router is one, and wrappers
// (budgets, record and replay) are others.
type Caller interface {
	Complete(ctx context.Context, ref config.ModelRef, req sdk.ChatRequest) (sdk.ChatResponse, error)
	Embed(ctx context.Context, ref config.ModelRef, req sdk.EmbedRequest) (sdk.EmbedResponse, error)
}

// ErrNoModel: a plugin asked the host for a model call without naming a
// model.
var ErrNoModel = errors.New("no model named")

// HostService is the sdk.Host the plugin host offers to matcher and
// scorer plugins (the llm-judge, similar, the rubric engine): their model
// calls come here and go through Caller, with the suite's providers, keys
// and redaction. Set Caller before the first plugin call; a nil Caller
// answers sdk.ErrNoHost.
type HostService struct {
	Caller Caller
	// DefaultModel, when set, names the chat model of a request that names
	// none and no provider (a matcher whose suite gives no model: the
	// judge's default, core/judge.DefaultModel). Its error, when no family
	// has a key, matches ErrNoKey, so the plugin defers its item.
	DefaultModel func() (string, error)
}

// Complete routes a plugin's chat request. provider is "" (the family is
// detected from req.Model), a family name (which must be req.Model's), or
// the name of a providers: entry. A request with neither a model nor a
// provider goes to DefaultModel.
func (h *HostService) Complete(ctx context.Context, provider string, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	if h != nil && h.Caller != nil && req.Model == "" && provider == "" && h.DefaultModel != nil {
		m, err := h.DefaultModel()
		if err != nil {
			// Its text already says what to set.
			return sdk.ChatResponse{}, err
		}
		req.Model = m
	}
	ref, err := h.ref(provider, req.Model)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	return h.Caller.Complete(ctx, ref, req)
}

// Embed routes a plugin's embedding request like Complete.
func (h *HostService) Embed(ctx context.Context, provider string, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	ref, err := h.ref(provider, req.Model)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	return h.Caller.Embed(ctx, ref, req)
}

func (h *HostService) ref(provider, model string) (config.ModelRef, error) {
	if h == nil || h.Caller == nil {
		return config.ModelRef{}, sdk.ErrNoHost
	}
	if model == "" {
		return config.ModelRef{}, fmt.Errorf("%w: the plugin's request has no model", ErrNoModel)
	}
	if provider == "" {
		return config.ModelRef{ID: model}, nil
	}
	if fam, ok := Detect(model); ok && fam == provider {
		return config.ModelRef{ID: model}, nil
	}
	if _, ok := familyByName(provider); ok || provider == FamilyStub {
		return config.ModelRef{}, fmt.Errorf("%w: model %q does not belong to the %s family", ErrUnknownModel, model, provider)
	}
	return config.ModelRef{ID: model, Provider: provider}, nil
}
