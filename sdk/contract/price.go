package contract

import "strings"

// ModelPrice is one row of a provider plugin's price table: what the
// vendor charges for a model, in US dollars per million tokens. The host
// reads the table from the plugin's description to enforce spend budgets
// before a call is made.
type ModelPrice struct {
	// Model is a model id, or a prefix ending in "*" that matches every id
	// starting with it (dated snapshots such as claude-sonnet-4-5-20250929).
	Model string `json:"model" yaml:"model"`
	// InputPerMTok is the price of one million prompt tokens.
	InputPerMTok float64 `json:"input_per_mtok" yaml:"input_per_mtok"`
	// OutputPerMTok is the price of one million completion tokens.
	OutputPerMTok float64 `json:"output_per_mtok" yaml:"output_per_mtok"`
}

// Matches reports whether the row prices model.
func (p ModelPrice) Matches(model string) bool {
	if prefix, ok := strings.CutSuffix(p.Model, "*"); ok {
		return strings.HasPrefix(model, prefix)
	}
	return p.Model == model
}

// Cost is the price of a call in US dollars.
func (p ModelPrice) Cost(u Usage) float64 {
	return (float64(u.InputTokens)*p.InputPerMTok + float64(u.OutputTokens)*p.OutputPerMTok) / 1e6
}

// LookupPrice finds the row pricing model: an exact id wins, then the
// longest matching prefix. ok is false when no row matches.
func LookupPrice(table []ModelPrice, model string) (price ModelPrice, ok bool) {
	best := -1
	for _, p := range table {
		if p.Model == model {
			return p, true
		}
		if p.Matches(model) && len(p.Model) > best {
			price, best, ok = p, len(p.Model), true
		}
	}
	return price, ok
}
