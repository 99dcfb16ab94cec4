package judge

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/sdk"
)

// Model is a judge model: it answers one chat request.
type Model interface {
	Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error)
}

// ModelSource gives the engine its judge models by id, and their prices.
type ModelSource interface {
	// Model returns the model id names. The error matches models.ErrNoKey
	// when its key is not set (the grade is then deferred).
	Model(id string) (Model, error)
	// Price is the model's price; ok is false when none is known.
	Price(id string) (p sdk.ModelPrice, ok bool)
}

// RouterSource reaches judge models through core/models' router, the way
// agent tests reach theirs. A judge model id is a bare model id whose
// family is detected from its name, or "NAME:ID" for model ID of the
// suite's providers: entry NAME.
type RouterSource struct {
	Router *models.Router
}

// Model resolves id; a missing key is refused here, before any call.
func (s RouterSource) Model(id string) (Model, error) {
	ref := ParseModelRef(id)
	if _, err := s.Router.Resolve(ref); err != nil {
		return nil, fmt.Errorf("judge model: %w", err)
	}
	return routed{router: s.Router, ref: ref}, nil
}

// Price asks the router's price table.
func (s RouterSource) Price(id string) (sdk.ModelPrice, bool) {
	return s.Router.Price(ParseModelRef(id))
}

// ParseModelRef reads a judge model id: "NAME:ID" names a providers:
// entry, anything else is a bare id.
func ParseModelRef(id string) config.ModelRef {
	for i := 0; i < len(id); i++ {
		if id[i] == ':' && i > 0 && i < len(id)-1 {
			return config.ModelRef{Provider: id[:i], ID: id[i+1:]}
		}
	}
	return config.ModelRef{ID: id}
}

type routed struct {
	router *models.Router
	ref    config.ModelRef
}

func (r routed) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	return r.router.Complete(ctx, r.ref, req)
}

// isNoKey reports whether err says a model key is missing.
func isNoKey(err error) bool { return errors.Is(err, models.ErrNoKey) }
