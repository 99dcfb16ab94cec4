package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestComplianceSSEResumption runs H07 and H08 against two real servers:
// server-everything, whose Streamable HTTP mode answers on resumable SSE
// streams, and the demo, which answers with JSON.
func TestComplianceSSEResumption(t *testing.T) {
	t.Run("server-everything", func(t *testing.T) {
		entry := npmServer(t, "server-everything")
		port := startHTTPServer(t, entry, "streamableHttp")
		out := filepath.Join(t.TempDir(), "sse.json")
		r := mcptest(t, "compliance", "run", "--server", fmt.Sprintf("http://127.0.0.1:%d/mcp", port),
			"--check", "H07,H08", "--reporter", "json="+out)
		if r.code != 1 {
			t.Fatalf("want exit 1 (H08 fails):\n%s", r)
		}
		_, tests := complianceReport(t, out)
		// It primes each stream (an id, no data) but sends no retry: a
		// warning, as in the conformance suite.
		h07 := tests["H07"]
		if !h07.IsWarning() || !hasFinding(h07, "priming event", report.StatusPassed) || !hasFinding(h07, "retry field", report.StatusFailed) {
			t.Errorf("H07: %s %+v", h07.Status, h07.Assertions)
		}
		// Its event store replays every later event of the session, so a
		// resumed stream carries the answer sent on another stream.
		h08 := tests["H08"]
		if h08.Status != report.StatusFailed || h08.IsWarning() || !hasFinding(h08, "GET with Last-Event-ID", report.StatusFailed) {
			t.Errorf("H08: %s %+v", h08.Status, h08.Assertions)
		}
	})
	t.Run("demo, JSON answers", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "json.json")
		r := mcptest(t, "compliance", "run", "--server", startHTTPDemo(t), "--check", "H07,H08", "--reporter", "json="+out)
		if r.code != 0 {
			t.Fatalf("want exit 0:\n%s", r)
		}
		_, tests := complianceReport(t, out)
		for _, id := range []string{"H07", "H08"} {
			tr := tests[id]
			if tr.Status != report.StatusSkipped || tr.Error == nil || !strings.Contains(tr.Error.Message, "not an SSE stream") {
				t.Errorf("%s: %s %+v", id, tr.Status, tr.Error)
			}
		}
	})
}

// hasFinding reports whether the test has an assertion on target with
// the given status.
func hasFinding(tr report.Test, target string, status report.Status) bool {
	for _, a := range tr.Assertions {
		if a.Target == target && a.Status == status {
			return true
		}
	}
	return false
}
