package compliance

import (
	"testing"
)

// brokenCases pairs each check with a misbehaviour of the fake that
// breaks its requirement, and the status the check must then report.
var brokenCases = []fakeCase{
	{"J01", "string-ids", Fail},
	{"J02", "bad-envelope", Fail},
	{"J03", "answer-notifications", Fail},
	{"J04", "unknown-method-result", Fail},
	{"J05", "parse-error-id", Fail},
	{"J05", "crash-on-garbage", Fail},
	{"J05", "ignore-garbage", Fail},
	{"J06", "lenient", Fail},
	{"J07", "invalid-params-internal", Fail},
	{"J08", "drop-batch", Fail},
	// Processing a batch from 2025-06-18 on is allowed: batching was
	// removed, refusing one never required.
	{"J08", "process-batch", Pass},
	{"J09", "banner", Fail},
	{"L01", "no-server-info", Fail},
	// The schema asks only for a string: an empty version is one.
	{"L01", "empty-version", Pass},
	{"L02", "bad-counter-offer", Fail},
	{"L03", "echo-unknown", Fail},
	{"L04", "early-request", Warn},
	{"L05", "ping-result", Fail},
	{"C01", "broken-resources", Fail},
	{"C01", "hide-prompts", Warn},
	{"C02", "sampling", Fail},
	{"T01", "bad-schema", Fail},
	{"T02", "cursor-loop", Fail},
	{"T02", "ignore-cursor", Warn},
	{"T03", "unknown-tool-iserror", Warn},
	{"T04", "bad-structured", Fail},
	{"T05", "bad-image", Fail},
	{"T06", "bad-name", Warn},
	{"T07", "accept-anything", Warn},
	{"R01", "missing-resource-empty", Warn},
	{"R02", "bad-contents", Fail},
	{"R02", "bad-template", Fail},
	{"R03", "subscribe-broken", Fail},
	{"P01", "prompt-internal-error", Warn},
	{"U01", "too-many-completions", Fail},
	{"U02", "accept-any-level", Warn},
	{"U03", "progress-backwards", Fail},
	{"U04", "answer-cancel", Warn},
}

// TestEveryCheckCanFail makes sure no check is left without a case that
// makes it fail: a check that cannot fail is a defect.
func TestEveryCheckCanFail(t *testing.T) {
	covered := map[string]bool{}
	add := func(check string, want Status) {
		if want != Pass {
			covered[check] = true
		}
	}
	for _, c := range brokenCases {
		add(c.check, c.want)
	}
	for _, c := range httpBrokenCases {
		add(c.check, c.want)
	}
	for _, c := range modernBrokenCases {
		add(c.check, c.want)
	}
	for _, c := range sseCases {
		add(c.check, c.want)
	}
	for _, c := range All() {
		if !covered[c.ID] {
			t.Errorf("check %s has no failing case", c.ID)
		}
	}
}

// modernBrokenCases break the stateless-era requirements.
var modernBrokenCases = []fakeCase{
	{"S01", "s01-no-versions", Fail},
	{"S02", "s02-no-result-type", Fail},
	{"S03", "s03-no-meta-check", Fail},
	{"S04", "s04-wrong-code", Fail},
	{"S06", "s06-request", Fail},
	{"S08", "s08-bad-scope", Fail},
	{"S11", "s11-old-code", Fail},
	{"R01", "s11-old-code", Fail},
}
