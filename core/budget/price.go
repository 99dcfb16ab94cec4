package budget

import (
	"github.com/mcptest/mcptest/core/config"
)

// Price is what a model charges, in US dollars per token.
type Price struct {
	// InputUSDPerToken is the price of one prompt (input) token.
	InputUSDPerToken float64
	// OutputUSDPerToken is the price of one completion (output) token.
	OutputUSDPerToken float64
}

// Cents is the cost in US cents of a call that used in prompt tokens and
// out completion tokens.
func (p Price) Cents(in, out int64) float64 {
	return 100 * (float64(in)*p.InputUSDPerToken + float64(out)*p.OutputUSDPerToken)
}

// Pricer knows the prices of models. ok is false when the model has no
// known price.
type Pricer interface {
	Price(ref config.ModelRef) (p Price, ok bool)
}

// PricerFunc adapts a function to Pricer.
type PricerFunc func(ref config.ModelRef) (Price, bool)

// Price calls f.
func (f PricerFunc) Price(ref config.ModelRef) (Price, bool) { return f(ref) }
