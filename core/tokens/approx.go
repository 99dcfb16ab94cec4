package tokens

import "unicode/utf8"

// charsPerToken is the approximation's ratio: BPE vocabularies trained on
// English text average about four characters a token, the rule of thumb
// model vendors give. It is an estimate, not a count: name a tokenizer when
// the budget must be exact.
const charsPerToken = 4

// approx counts one token per four characters (Unicode code points),
// rounded up; empty text is 0 tokens.
type approx struct{}

// Count estimates the tokens of text.
func (approx) Count(text string) int {
	n := utf8.RuneCountInString(text)
	return (n + charsPerToken - 1) / charsPerToken
}
