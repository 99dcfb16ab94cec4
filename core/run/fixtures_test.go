package run_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

func TestInjectErrorNeverReachesTheServer(t *testing.T) {
	// The server cannot even start: an injected error must not need it.
	pl, h, _ := flowSetup(t, `
servers:
  gone:
    command: ["/nonexistent/mcp-server"]
fixtures:
  server: gone
  errors:
    - {name: rate_limited, code: -32000, message: "API rate limit exceeded", tool: create_issue}
    - {name: auth_expired, code: -32001, message: "OAuth token expired", applies_to: any}
tools:
  - name: rate limit shape
    server: gone
    tool: create_issue
    inject_error: rate_limited
    args: {title: "Triage queue overflow"}
    capture: {code: result.error.code}
    expect:
      - {target: result.isError, matcher: {eq: true}}
      - {target: result.jsonrpc, matcher: {eq: "2.0"}}
      - {target: result.error.code, matcher: {eq: -32000}}
      - {target: result.error.message, matcher: {eq: "API rate limit exceeded"}}
  - name: any tool may inject an unscoped fixture
    server: gone
    tool: list_repos
    inject_error: auth_expired
    expect:
      - {target: result.error, matcher: {eq: {"code":-32001,"message":"OAuth token expired"}}}
  - name: a failing assertion shows the synthesised envelope
    server: gone
    tool: list_repos
    inject_error: auth_expired
    expect:
      - {target: result.error.code, matcher: {eq: 1}}
  - name: no expectations is a failed call
    server: gone
    tool: list_repos
    inject_error: auth_expired
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	tests := flowResults(res)
	for _, name := range []string{"rate limit shape", "any tool may inject an unscoped fixture"} {
		if tr := tests[name]; tr.Status != report.StatusPassed {
			t.Errorf("%s:\n%s", name, flowExplain(tr))
		}
	}
	shown := tests["a failing assertion shows the synthesised envelope"]
	var env map[string]any
	if shown.Status != report.StatusFailed || json.Unmarshal(shown.Response, &env) != nil {
		t.Fatalf("failing assertion:\n%s", flowExplain(shown))
	}
	if got := string(shown.Response); got != `{"result":{"jsonrpc":"2.0","error":{"code":-32001,"message":"OAuth token expired"},"isError":true}}` {
		t.Errorf("envelope = %s", got)
	}
	if len(shown.Frames) != 0 || shown.Stderr != "" {
		t.Errorf("an injected error has no wire traffic: %+v", shown.Frames)
	}
	bare := tests["no expectations is a failed call"]
	if bare.Status != report.StatusFailed || bare.Error == nil || !strings.Contains(bare.Error.Message, "isError") {
		t.Errorf("no expectations:\n%s", flowExplain(bare))
	}
	if len(res.Servers) != 0 {
		t.Errorf("no server was started, yet the report lists %+v", res.Servers)
	}
}
