package config

import "encoding/json"

// Assertion is one entry of an expect block: where to look in the result
// and how to judge it, or (when Set is not nil) an assert-set.
type Assertion struct {
	// Target is the path of the value to judge, e.g.
	// "result.content[0].text". It may be empty (the whole envelope).
	Target string
	// Matcher is the single matcher of the assertion.
	Matcher Matcher
	// Message is the author's description used in failure output; empty
	// when unset.
	Message string
	// Name names the assertion so derived metrics can refer to it; "" when
	// unset.
	Name string
	// Weight is the assertion's weight in a combined score (default 1).
	Weight float64
	// Transform rewrites the extracted value before the matcher sees it;
	// nil when unset.
	Transform *Command
	// Set is the assert-set this entry stands for; when it is not nil,
	// Target, Matcher, Message and Transform are unset.
	Set *AssertSet
	// Pos is the position of the assertion's mapping.
	Pos Pos
}

// AssertSet is a named bundle of assertions with its own threshold; it
// counts as one unit, of weight Weight, in the test's score.
type AssertSet struct {
	// Name names the set for derived metrics; "" when unset.
	Name string
	// Threshold is the weighted pass-fraction the set needs (default 1).
	Threshold float64
	// Weight is the set's weight in the test's score (default 1).
	Weight float64
	// Assertions are the set's plain assertions (sets do not nest).
	Assertions []*Assertion
	// Pos is the position of the assert-set key.
	Pos Pos
}

// Matcher is the one-key matcher object of an assertion, such as
// {contains: "hello"}. Keys other than the composition keys (not, anyOf,
// allOf, oneOf) are resolved later against the installed matcher plugins;
// the loader only checks the argument shape of the keys the v1 format
// documents.
type Matcher struct {
	// Key is the matcher name, e.g. "contains".
	Key string
	// Arg is the matcher's argument converted from YAML to JSON ("null"
	// when the argument is ~).
	Arg json.RawMessage
	// Children holds the inner matchers of a composition key: one for not,
	// one or more for anyOf, allOf and oneOf; nil for other keys.
	Children []*Matcher
	// Pos is the position of the matcher key; its Pointer is that of the
	// matcher object (".../matcher").
	Pos Pos
}

// IsComposition reports whether the matcher is structural (not, anyOf,
// allOf, oneOf): it combines inner matchers rather than naming a plugin.
func (m *Matcher) IsComposition() bool { return compositionKeys[m.Key] }

// compositionKeys are the structural matcher keys.
var compositionKeys = map[string]bool{"not": true, "anyOf": true, "allOf": true, "oneOf": true}

// ExpectOptions are the step-level fields of the long form of expect (an
// object with assertions:). They judge the whole step, not one target.
type ExpectOptions struct {
	// MaxDurationMS fails the step when it takes longer; 0 when unset.
	MaxDurationMS int
	// MaxResponseTokens caps the response's token count; nil when unset.
	MaxResponseTokens *TokenBudget
	// ResponseHeaders are checks of HTTP response headers (URL servers).
	ResponseHeaders []*HeaderCheck
	// ResponseHeadersAbsent names headers that must not be present.
	ResponseHeadersAbsent []string
	// Pos is the position of the expect object.
	Pos Pos
}

// TokenBudget is max_response_tokens: an integer, or an object with a
// budget and counting options.
type TokenBudget struct {
	// Budget is the largest token count that passes.
	Budget int
	// Tokenizer names the tokenizer; "" for the default.
	Tokenizer string
	// Mode names how tokens are counted; "" for the default.
	Mode string
	// ImageCost is the tokens charged per image; nil for the default.
	ImageCost *int
}

// HeaderCheck is one entry of response_headers: a header name and one
// predicate. Exactly one of Equals, Regex, Schema, Exists and Contains is
// set.
type HeaderCheck struct {
	// Name is the header name (matched case-insensitively).
	Name string
	// Equals is the exact value (the string shorthand).
	Equals *string
	// Regex is a pattern the value must match.
	Regex string
	// Schema is a JSON Schema the value must satisfy.
	Schema json.RawMessage
	// Exists says whether the header must be present (true) or absent.
	Exists *bool
	// Contains is a substring the value must contain.
	Contains string
	// Pos is the position of the header's key.
	Pos Pos
}
