// Package budget enforces the spend caps of a suite's budget block on agent
// runs: a cap per agent test and a cap per suite, both in US cents.
//
// A cap is checked before each model call, against the most the call can
// cost (an estimate of its prompt and its max_tokens at the model's price),
// so a run stops before the provider bills a call that would cross a cap,
// not after. Prices come from a Pricer (core/models' table: shipped with
// each provider plugin, overridable per providers entry); a budget on a
// model without a known price is refused at plan time (Check).
package budget
