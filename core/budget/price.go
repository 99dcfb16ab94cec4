package budget

import (
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

// Pricer knows the prices of models; ok is false when a model has no known
// price. *models.Router is one: its table is the one shipped with each
// provider plugin, overridden by a providers: entry's prices.
type Pricer interface {
	Price(ref config.ModelRef) (p sdk.ModelPrice, ok bool)
}

// PricerFunc adapts a function to Pricer.
type PricerFunc func(ref config.ModelRef) (sdk.ModelPrice, bool)

// Price calls f.
func (f PricerFunc) Price(ref config.ModelRef) (sdk.ModelPrice, bool) { return f(ref) }

// cents is the cost in US cents of a call that used in prompt tokens and
// out completion tokens at price p (whose rates are per million tokens).
func cents(p sdk.ModelPrice, in, out int64) float64 {
	return 100 * (float64(in)*p.InputPerMTok + float64(out)*p.OutputPerMTok) / 1e6
}
