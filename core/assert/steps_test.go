package assert

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

func TestStepChecks(t *testing.T) {
	hdr := http.Header{}
	hdr.Set("Content-Type", "application/json; charset=utf-8")
	hdr.Add("Vary", "Origin")
	hdr.Add("Vary", "Accept")
	hdr.Set("X-Count", "12")
	result := json.RawMessage(`{"content":[{"type":"text","text":"0123456789abcdef"}]}`) // 16 characters: 4 tokens
	for _, tc := range []struct {
		name    string
		eo      config.ExpectOptions
		s       Step
		matcher string
		target  string
		status  rpt.Status
		detail  string // in the failure or the error
	}{
		{"duration within budget", config.ExpectOptions{MaxDurationMS: 500}, Step{Duration: 100 * time.Millisecond}, "max_duration_ms", "duration_ms", rpt.StatusPassed, ""},
		{"duration at the budget passes", config.ExpectOptions{MaxDurationMS: 100}, Step{Duration: 100 * time.Millisecond}, "max_duration_ms", "duration_ms", rpt.StatusPassed, ""},
		{"duration over budget", config.ExpectOptions{MaxDurationMS: 50}, Step{Duration: 81200 * time.Microsecond}, "max_duration_ms", "duration_ms", rpt.StatusFailed, "the call took 81.2 ms, over the budget of 50 ms"},
		{"cache hits skip the duration", config.ExpectOptions{MaxDurationMS: 1}, Step{Duration: time.Second, Cached: true}, "max_duration_ms", "duration_ms", rpt.StatusSkipped, "result cache"},
		{"tokens within budget", config.ExpectOptions{MaxResponseTokens: &config.TokenBudget{Budget: 4}}, Step{Result: result}, "max_response_tokens", "result", rpt.StatusPassed, ""},
		{"tokens over budget", config.ExpectOptions{MaxResponseTokens: &config.TokenBudget{Budget: 3}}, Step{Result: result}, "max_response_tokens", "result", rpt.StatusFailed, "the response is 4 tokens (approx, text mode), over the budget of 3"},
		{"tokens in json mode", config.ExpectOptions{MaxResponseTokens: &config.TokenBudget{Budget: 10, Mode: "json"}}, Step{Result: result}, "max_response_tokens", "result", rpt.StatusFailed, `"mode":"json"`},
		{"image cost", config.ExpectOptions{MaxResponseTokens: &config.TokenBudget{Budget: 50, ImageCost: new(100)}},
			Step{Result: json.RawMessage(`{"content":[{"type":"image","data":"AA","mimeType":"image/png"}]}`)}, "max_response_tokens", "result", rpt.StatusFailed, `"images":1`},
		{"header equals", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "content-type", Equals: strp("application/json; charset=utf-8")}}}, Step{Headers: hdr}, "response_headers", "headers.content-type", rpt.StatusPassed, ""},
		{"header differs", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "Content-Type", Equals: strp("text/plain")}}}, Step{Headers: hdr}, "response_headers", "headers.content-type", rpt.StatusFailed, `"actual":"application/json; charset=utf-8"`},
		{"header contains", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "content-type", Contains: "json"}}}, Step{Headers: hdr}, "response_headers", "headers.content-type", rpt.StatusPassed, ""},
		{"header regex on joined values", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "vary", Regex: "^Origin, Accept$"}}}, Step{Headers: hdr}, "response_headers", "headers.vary", rpt.StatusPassed, ""},
		{"header regex misses", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "vary", Regex: "^Cookie"}}}, Step{Headers: hdr}, "response_headers", "headers.vary", rpt.StatusFailed, `"match":null`},
		{"header missing", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-request-id", Contains: "a"}}}, Step{Headers: hdr}, "response_headers", "headers.x-request-id", rpt.StatusFailed, "the response has no x-request-id header"},
		{"header exists", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-count", Exists: boolp(true)}}}, Step{Headers: hdr}, "response_headers", "headers.x-count", rpt.StatusPassed, ""},
		{"header must not exist", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-count", Exists: boolp(false)}}}, Step{Headers: hdr}, "response_headers", "headers.x-count", rpt.StatusFailed, "is present; it must not be"},
		{"header schema", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-count", Schema: json.RawMessage(`{"type":"string","pattern":"^[0-9]+$"}`)}}}, Step{Headers: hdr}, "response_headers", "headers.x-count", rpt.StatusPassed, ""},
		{"header schema fails", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-count", Schema: json.RawMessage(`{"enum":["1","2"]}`)}}}, Step{Headers: hdr}, "response_headers", "headers.x-count", rpt.StatusFailed, "does not satisfy the schema"},
		{"header schema may not load anything", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x-count", Schema: json.RawMessage(`{"$ref":"https://example.com/s.json"}`)}}}, Step{Headers: hdr}, "response_headers", "headers.x-count", rpt.StatusErrored, "refused to load"},
		{"no HTTP response", config.ExpectOptions{ResponseHeaders: []*config.HeaderCheck{{Name: "x", Contains: "a"}}}, Step{}, "response_headers", "headers.x", rpt.StatusErrored, "no HTTP response"},
		{"absent header", config.ExpectOptions{ResponseHeadersAbsent: []string{"Set-Cookie"}}, Step{Headers: hdr}, "response_headers_absent", "headers.set-cookie", rpt.StatusPassed, ""},
		{"absent header present", config.ExpectOptions{ResponseHeadersAbsent: []string{"vary"}}, Step{Headers: hdr}, "response_headers_absent", "headers.vary", rpt.StatusFailed, `"actual":"Origin, Accept"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := stepChecks(&tc.eo, tc.s, 3)
			if len(out) != 1 {
				t.Fatalf("checks = %+v", out)
			}
			a := out[0]
			if a.Index != 3 || a.Matcher != tc.matcher || a.Target != tc.target || a.Status != tc.status {
				t.Errorf("check = %+v (failure %s)", a, a.Failure)
			}
			if got := string(a.Failure) + a.Error; !strings.Contains(got, tc.detail) {
				t.Errorf("detail %q not in %s", tc.detail, got)
			}
		})
	}
}

// TestStepChecksOrder checks the order and indices of several checks.
func TestStepChecksOrder(t *testing.T) {
	eo := &config.ExpectOptions{MaxDurationMS: 9, MaxResponseTokens: &config.TokenBudget{Budget: 9},
		ResponseHeaders: []*config.HeaderCheck{{Name: "a", Exists: boolp(false)}}, ResponseHeadersAbsent: []string{"b"}}
	out := stepChecks(eo, Step{Headers: http.Header{}, Result: json.RawMessage(`{}`)}, 1)
	var got []string
	for i, a := range out {
		if a.Index != 1+i || a.Status != rpt.StatusPassed {
			t.Errorf("check %d = %+v", i, a)
		}
		got = append(got, a.Matcher)
	}
	if strings.Join(got, " ") != "max_duration_ms max_response_tokens response_headers response_headers_absent" {
		t.Errorf("order = %v", got)
	}
	if stepChecks(nil, Step{}, 0) != nil {
		t.Error("no long form, no checks")
	}
}
