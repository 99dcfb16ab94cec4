package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestComplianceEvidenceOnlyForFindings runs the tool checks against
// server-everything, whose read-only get-env tool answers with the
// server's whole environment. A variable planted in that environment must
// not reach the report through a check that passes: only findings keep
// their frames.
func TestComplianceEvidenceOnlyForFindings(t *testing.T) {
	entry := npmServer(t, "server-everything")
	const marker = "marker-7c1e-planted-in-the-environment"
	out := filepath.Join(t.TempDir(), "c.json")
	r := mcptestEnv(t, []string{"MCPTEST_E2E_ENV_MARKER=" + marker}, "compliance", "run",
		"--server", "node "+entry, "--timeout", "30s", "--check", "T01,T04,T05,T06,T07",
		"--reporter", "json="+out, "--reporter", "pretty")
	if r.code != 0 {
		t.Fatalf("want exit 0 (these checks pass against server-everything):\n%s", r)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"json report": string(raw), "stdout": r.stdout, "stderr": r.stderr} {
		if strings.Contains(text, marker) {
			t.Errorf("%s holds the server's environment", name)
		}
	}
	_, tests := complianceReport(t, out)
	if len(tests) != 5 {
		t.Fatalf("want 5 checks, got %d", len(tests))
	}
	for id, tr := range tests {
		if tr.Status == report.StatusPassed && len(tr.Frames) > 0 {
			t.Errorf("%s passed and still reports %d frames", id, len(tr.Frames))
		}
	}
}
