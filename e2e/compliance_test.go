package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// demoServer is the demo server's path, for --server.
func demoServer() string { return filepath.Join(binDir, "mcptest-demo-server") }

// complianceReport reads a JSON report and indexes its tests by check id.
func complianceReport(t *testing.T, path string) (*report.Run, map[string]report.Test) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run report.Run
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	byID := map[string]report.Test{}
	for _, tr := range run.Tests {
		if tr.Block != "compliance" || tr.Check == nil {
			t.Errorf("test %s is not a compliance check: %+v", tr.ID, tr)
			continue
		}
		byID[tr.Check.ID] = tr
	}
	return &run, byID
}

// TestComplianceAgainstTheDemo runs every check against the demo over stdio
// with the json, sarif and pretty reporters. The demo (mcp-go) breaks two
// MUST requirements (J06, J07) and one SHOULD (P01); see docs/compliance.md.
func TestComplianceAgainstTheDemo(t *testing.T) {
	dir := t.TempDir()
	out, sarif := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.sarif")
	r := mcptest(t, "compliance", "run", "--server", demoServer(), "--timeout", "2s",
		"--reporter", "pretty", "--reporter", "json="+out, "--reporter", "sarif="+sarif)
	if r.code != 1 {
		t.Fatalf("want exit 1 (MUST failures):\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "J06", "J07", "P01")
	mustContain(t, "stderr", r.stderr, "2 failed (MUST)", "1 warnings (SHOULD)", "(exit 1)")
	run, tests := complianceReport(t, out)
	if run.ExitCode != 1 || len(run.Servers) != 1 || run.Servers[0].ServerName != "mcptest-demo" || run.Servers[0].ProtocolVersion != "2025-11-25" {
		t.Errorf("run header: exit %d servers %+v", run.ExitCode, run.Servers)
	}
	for id, tr := range tests {
		switch id {
		case "J06", "J07":
			if tr.Status != report.StatusFailed || tr.Check.Severity != "MUST" || len(tr.Frames) == 0 {
				t.Errorf("%s: %+v", id, tr)
			}
		case "P01":
			if tr.Status != report.StatusWarned || tr.Check.Severity != "SHOULD" {
				t.Errorf("%s: %+v", id, tr)
			}
		default:
			if tr.Status != report.StatusPassed && tr.Status != report.StatusSkipped {
				t.Errorf("%s: %s", id, tr.Status)
			}
			if tr.Status == report.StatusSkipped && (tr.Error == nil || tr.Error.Kind != "not_applicable") {
				t.Errorf("%s skipped without a reason: %+v", id, tr.Error)
			}
		}
	}
	if tests["J01"].Check == nil || tests["J01"].Check.Section == "" || tests["J01"].Check.Revision != "2025-11-25" {
		t.Errorf("check metadata missing: %+v", tests["J01"].Check)
	}
	b, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	validateJSONSchema(t, filepath.Join(thirdParty(t), "sarif-schema-2.1.0.json"), b)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	levels := map[string]string{}
	for _, res := range log.Runs[0].Results {
		levels[res.RuleID] = res.Level
	}
	if levels["J06"] != "error" || levels["P01"] != "warning" {
		t.Errorf("SARIF levels: %v", levels)
	}
	assertNoOrphans(t)
}

// TestComplianceBaseline shows listed failures passing, a stale entry
// flagged, and --fail-on-stale and --strict changing the exit code.
func TestComplianceBaseline(t *testing.T) {
	dir := t.TempDir()
	written := filepath.Join(dir, "written.yml")
	r := mcptest(t, "compliance", "run", "--server", demoServer(), "--timeout", "1s", "--check", "J01,J07,P01",
		"--write-baseline", written, "--reporter", "json="+filepath.Join(dir, "first.json"))
	if r.code != 1 {
		t.Fatalf("first run: want exit 1:\n%s", r)
	}
	text, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "written baseline", string(text), "id: J07", "id: P01")
	if strings.Contains(string(text), "J01") {
		t.Errorf("a passing check was written as a known failure:\n%s", text)
	}

	// The written baseline, plus a stale entry for J01, which passes.
	baseline := filepath.Join(dir, "baseline.yml")
	if err := os.WriteFile(baseline, append(text, []byte("  - id: J01\n    reason: fixed since\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "second.json")
	r = mcptest(t, "compliance", "run", "--server", demoServer(), "--timeout", "1s", "--check", "J01,J07,P01",
		"--baseline", baseline, "--reporter", "json="+out)
	if r.code != 0 {
		t.Fatalf("with the baseline: want exit 0:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "J01, which passes now", "2 known failures", "1 stale")
	_, tests := complianceReport(t, out)
	if j07 := tests["J07"]; j07.Status != report.StatusPassed || len(j07.Assertions) == 0 || !strings.Contains(j07.Assertions[0].Message, "known failure") {
		t.Errorf("J07 not reported as a known failure: %+v", j07)
	}
	if j01 := tests["J01"]; j01.Status != report.StatusPassed || !strings.Contains(j01.Assertions[0].Message, "stale") {
		t.Errorf("J01 not flagged stale: %+v", j01.Assertions)
	}

	r = mcptest(t, "compliance", "run", "--server", demoServer(), "--timeout", "1s", "--check", "J01,J07,P01",
		"--baseline", baseline, "--fail-on-stale", "--reporter", "json="+filepath.Join(dir, "third.json"))
	if r.code != 1 {
		t.Errorf("--fail-on-stale: want exit 1:\n%s", r)
	}
	// A SHOULD warning alone passes, unless --strict.
	r = mcptest(t, "compliance", "run", "--server", demoServer(), "--check", "P01", "--reporter", "json="+filepath.Join(dir, "p.json"))
	if r.code != 0 {
		t.Errorf("a SHOULD warning failed the run:\n%s", r)
	}
	r = mcptest(t, "compliance", "run", "--server", demoServer(), "--check", "P01", "--strict", "--reporter", "json="+filepath.Join(dir, "s.json"))
	if r.code != 1 {
		t.Errorf("--strict: want exit 1:\n%s", r)
	}
}

// TestComplianceOverHTTP runs the HTTP checks against the demo's
// Streamable HTTP endpoint; mcp-go keeps serving a deleted session (H04)
// and does not validate Origin (H06).
func TestComplianceOverHTTP(t *testing.T) {
	url := startHTTPDemo(t)
	out := filepath.Join(t.TempDir(), "http.json")
	r := mcptest(t, "compliance", "run", "--server", url, "--timeout", "2s", "--header", "X-Probe: compliance-secret-value",
		"--reporter", "json="+out)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	run, tests := complianceReport(t, out)
	for _, id := range []string{"H01", "H02", "H03", "H05"} {
		if tests[id].Status != report.StatusPassed {
			t.Errorf("%s: %s", id, tests[id].Status)
		}
	}
	for _, id := range []string{"H04", "H06"} {
		if tests[id].Status != report.StatusFailed {
			t.Errorf("%s: want failed, got %s", id, tests[id].Status)
		}
	}
	if tests["J09"].Status != report.StatusSkipped {
		t.Errorf("J09 is stdio-only, got %s", tests["J09"].Status)
	}
	if run.Servers[0].Transport != "http" {
		t.Errorf("transport %q", run.Servers[0].Transport)
	}
	raw, _ := os.ReadFile(out)
	if strings.Contains(string(raw), "compliance-secret-value") {
		t.Error("a --header value reached the report")
	}
}

// TestComplianceModernEra speaks 2026-07-28 to the demo over stdio.
func TestComplianceModernEra(t *testing.T) {
	out := filepath.Join(t.TempDir(), "modern.json")
	r := mcptest(t, "compliance", "run", "--server", demoServer(), "--protocol-version", "2026-07-28",
		"--check", "S01,S02,S06,L01,T01", "--reporter", "json="+out)
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	_, tests := complianceReport(t, out)
	for _, id := range []string{"S01", "S02", "S06", "T01"} {
		if tests[id].Status != report.StatusPassed || tests[id].Check.Revision != "2026-07-28" {
			t.Errorf("%s: %s %s", id, tests[id].Status, tests[id].Check.Revision)
		}
	}
	if tests["L01"].Status != report.StatusSkipped {
		t.Errorf("L01 is legacy-only, got %s", tests["L01"].Status)
	}
}

// TestComplianceUsageErrors stop before any server starts, with exit 2.
func TestComplianceUsageErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(bad, []byte("known_failures: [J99]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"compliance", "run"}, "--server is required"},
		{[]string{"compliance", "run", "--server", demoServer(), "--check", "Z9"}, `unknown compliance check "Z9"`},
		{[]string{"compliance", "run", "--server", demoServer(), "--baseline", bad}, `unknown compliance check "J99"`},
		{[]string{"compliance", "run", "--server", "'unterminated"}, "split the command"},
		{[]string{"compliance", "frobnicate"}, "unknown subcommand"},
	}
	for _, c := range cases {
		r := mcptest(t, c.args...)
		if r.code != 2 {
			t.Errorf("%v: want exit 2:\n%s", c.args, r)
		}
		mustContain(t, "stderr", r.stderr, c.want)
	}
	// A server that cannot start errors every check: exit 2.
	r := mcptest(t, "compliance", "run", "--server", "/nonexistent/mcp-server --flag", "--check", "J01", "--reporter", "json="+filepath.Join(t.TempDir(), "x.json"))
	if r.code != 2 {
		t.Errorf("missing server: want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "could not be initialised")
	// The checks can be listed.
	r = mcptest(t, "compliance", "list")
	if r.code != 0 {
		t.Fatalf("list:\n%s", r)
	}
	mustContain(t, "list", r.stdout, "J01", "H06", "S05", "SHOULD")
}
