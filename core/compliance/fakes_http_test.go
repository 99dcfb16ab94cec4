package compliance

import (
	"strings"
	"testing"
)

// httpBrokenCases are the HTTP-only checks' misbehaviours.
var httpBrokenCases = []fakeCase{
	{"H01", "h01-text-plain", Fail},
	{"H02", "h02-200", Fail},
	{"H03", "h03-404", Fail},
	{"H04", "h04-no-404", Fail},
	{"H05", "h05-ignore-version", Fail},
	{"H06", "h06-no-origin-check", Fail},
	{"S05", "s05-no-header-check", Fail},
}

// lenientHTTPCases are behaviours the spec allows (or only advises
// against), which the checks once failed: each must now get the status
// given.
var lenientHTTPCases = []fakeCase{
	// "it MUST return an HTTP error status code (e.g., 400 Bad Request)";
	// a JSON-RPC body is optional.
	{"J05", "j05-http-400", Pass},
	// The spec's MUST is about Origin; Host checking is advice.
	{"H06", "h06-no-host-check", Warn},
}

// sseCases run the fake answering on resumable SSE streams ("sse"), and
// break one part of H07 or H08 at a time.
var sseCases = []fakeCase{
	{"H07", "sse", Pass},
	{"H08", "sse", Pass},
	{"H07", "sse,h07-no-priming", Warn},
	{"H08", "sse,h08-dup-ids", Fail},
	{"H08", "sse,h08-cross-replay", Fail},
}

// A server that answers with JSON has no SSE streams: H07 and H08 do not
// apply, and say why.
func TestSSEChecksNotApplicableToJSONAnswers(t *testing.T) {
	url := startServer(t, fakeBin(t), nil, "--http", "127.0.0.1:0")
	rs := runChecks(t, Target{URL: url}, Options{Only: []string{"H07", "H08"}})
	for _, id := range []string{"H07", "H08"} {
		if r := rs[id]; r.Status != NotApplicable || !strings.Contains(r.Message, "not an SSE stream") {
			t.Errorf("%s: %s %q", id, r.Status, r.Message)
		}
	}
}
