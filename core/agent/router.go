package agent

import (
	"context"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/sdk"
)

// RouterModels gives agent tests their models through core/models' router
// (it satisfies run.AgentModels). A model whose key is missing is refused
// before the run starts with an error matching models.ErrNoKey, so the
// test is deferred without touching a server.
type RouterModels struct {
	Router *models.Router
}

// Model resolves ref and returns the model that calls it.
func (m RouterModels) Model(_ context.Context, _ *config.Suite, ref config.ModelRef) (Model, error) {
	if _, err := m.Router.Resolve(ref); err != nil {
		return nil, err
	}
	return routed{router: m.Router, ref: ref}, nil
}

// routed is one model reached through the router.
type routed struct {
	router *models.Router
	ref    config.ModelRef
}

func (r routed) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	return r.router.Complete(ctx, r.ref, req)
}
