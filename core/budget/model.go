package budget

import (
	"context"

	"github.com/mcptest/mcptest/sdk"
)

// Model is the model an agent loop calls (core/agent.Model has the same
// method set, so either converts to the other).
type Model interface {
	Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error)
}

// Wrap returns m metered by t at price p: a call that could cross a cap is
// refused with an *ExceededError before it reaches m, and each answered
// call's cost is added to the test and the suite. A nil t returns m as is.
func Wrap(m Model, p sdk.ModelPrice, t *Test) Model {
	if t == nil {
		return m
	}
	return &metered{next: m, price: p, test: t}
}

// metered is a Model whose calls are charged to a test's budget.
type metered struct {
	next  Model
	price sdk.ModelPrice
	test  *Test
}

// Complete checks the caps, calls the model, and charges what it cost.
func (m *metered) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	in, out := EstimateTokens(req)
	est := cents(m.price, in, out)
	if err := m.test.reserve(est, req.Model); err != nil {
		return sdk.ChatResponse{}, err
	}
	resp, err := m.next.Complete(ctx, req)
	// A failed call may still have been billed (a reply cut off after the
	// vendor counted it); its usage, when the provider reported one, is
	// charged either way.
	m.test.settle(est, m.cost(resp.Usage))
	return resp, err
}

// cost is a call's price in cents: the provider's own figure when it gave
// one, else its token counts at the model's price.
func (m *metered) cost(u sdk.Usage) float64 {
	if u.CostUSD != nil && *u.CostUSD >= 0 {
		return 100 * *u.CostUSD
	}
	return cents(m.price, u.InputTokens, u.OutputTokens)
}
