package run_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/servertest"
	"github.com/mcptest/mcptest/sdk/report"
)

// startDemoURL starts the demo server with --http or --sse on a free port
// and returns the URL it prints.
func startDemoURL(t *testing.T, flag string) string {
	t.Helper()
	u, _ := servertest.StartURL(t, demo(t), nil, flag, "127.0.0.1:0")
	return u
}

// sessionIDOf reads the session id from a request_headers answer.
func sessionIDOf(result json.RawMessage) string {
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	var headers map[string][]string
	if json.Unmarshal(result, &res) != nil || len(res.Content) == 0 || json.Unmarshal([]byte(res.Content[0].Text), &headers) != nil {
		return ""
	}
	if v := headers["Mcp-Session-Id"]; len(v) == 1 {
		return v[0]
	}
	return ""
}

func TestURLServerSessionsPerTestAndSSE(t *testing.T) {
	url, sseURL := startDemoURL(t, "--http"), startDemoURL(t, "--sse")
	pl, h, _ := flowSetup(t, `
servers:
  fresh: {url: "`+url+`", restart_policy: per_test}
  shared: {url: "`+url+`"}
  legacy: {url: "`+sseURL+`", http: {transport: sse}}
tools:
  - {name: fresh one, server: fresh, tool: request_headers}
  - {name: fresh two, server: fresh, tool: request_headers}
  - {name: shared one, server: shared, tool: request_headers}
  - {name: shared two, server: shared, tool: request_headers}
  - name: over legacy SSE
    server: legacy
    tool: echo
    args: {message: "sse"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "sse"}}
`, plan.Selection{})
	var mu sync.Mutex
	ids := map[string]string{}
	res := run.Execute(context.Background(), pl, run.Options{Host: h, NoCache: true,
		OnCall: func(_ *config.Suite, srv *config.Server, _ *session.Session, _ string, _ json.RawMessage, out *session.Outcome, _ error) {
			if id := sessionIDOf(out.Result); id != "" {
				mu.Lock()
				ids[id] = srv.Name
				mu.Unlock()
			}
		}})
	if res.Summary.Passed != 5 {
		t.Fatalf("summary %+v: %+v", res.Summary, res.Tests)
	}
	per := map[string]int{}
	for _, srv := range ids {
		per[srv]++
	}
	// Two tests of the per_test server ran on two HTTP sessions; the two
	// of the shared server on one.
	if per["fresh"] != 2 || per["shared"] != 1 {
		t.Errorf("distinct session ids per server: %v", per)
	}
	var legacy report.Server
	for _, s := range res.Servers {
		if s.Name == "legacy" {
			legacy = s
		}
	}
	// http.transport: sse chose the legacy transport without pinning the
	// 2024-11-05 revision.
	if legacy.Transport != session.TransportSSE || legacy.Error != "" {
		t.Errorf("legacy server: %+v", legacy)
	}
}
