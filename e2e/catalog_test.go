package e2e

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// craftedPair is the pair of catalogs that covers every diff rule.
func craftedPair() (string, string) {
	dir := filepath.Join(root, "core", "catalog", "testdata")
	return filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
}

// TestDiffCraftedPairReports runs `mcptest diff` on the crafted pair:
// exit 1, one failed test per breaking change and one passed test per
// non-breaking one in the JSON report, the same counts in JUnit, and the
// markdown changelog with both sections.
func TestDiffCraftedPairReports(t *testing.T) {
	dir := t.TempDir()
	old, new := craftedPair()
	js, junit, cl := filepath.Join(dir, "diff.json"), filepath.Join(dir, "diff.xml"), filepath.Join(dir, "changes.md")
	r := mcptest(t, "diff", old, new, "--reporter", "json="+js, "--reporter", "junit="+junit, "--changelog", cl)
	if r.code != 1 {
		t.Fatalf("want exit 1 (breaking changes):\n%s", r)
	}
	run, tests := toolkitRun(t, js)
	if run.Summary.Failed != 15 || run.Summary.Passed != 16 || run.ExitCode != 1 {
		t.Errorf("summary %+v exit %d; want 15 failed, 16 passed, exit 1", run.Summary, run.ExitCode)
	}
	tr := tests["diff/required-argument-added/tool/search/inputSchema/properties/index"]
	if tr.Status != report.StatusFailed || tr.Check == nil || tr.Check.ID != "diff/required-argument-added" || tr.Tool != "search" {
		t.Errorf("required-argument-added test = %+v", tr)
	}
	if tr := tests["diff/enum-value-added/tool/search/inputSchema/properties/mode/enum/exhaustive"]; tr.Status != report.StatusPassed {
		t.Errorf("enum-value-added test = %+v", tr)
	}
	raw, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &suites); err != nil {
		t.Fatalf("junit: %v\n%s", err, raw)
	}
	if len(suites.Suites) != 1 || suites.Suites[0].Tests != 31 || suites.Suites[0].Failures != 15 {
		t.Errorf("junit: %+v; want one suite of 31 tests, 15 failures", suites.Suites)
	}
	md, err := os.ReadFile(cl)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "changelog", string(md), "## Catalog changes", "15 breaking, 16 non-breaking", "### Breaking", "### Non-breaking",
		"tool legacy was removed (`tool-removed`)", "(`template-added`)")
}

// TestSnapshotAndDiffLive snapshots the demo server and server-everything
// and diffs each snapshot against the live server (no change, exit 0);
// the demo built with a changed tool is a breaking change (exit 1).
func TestSnapshotAndDiffLive(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join(dir, "demo.json")
	r := mcptest(t, "snapshot-catalog", "--server", demoServer(), "-o", snap)
	if r.code != 0 {
		t.Fatalf("snapshot-catalog:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "wrote "+snap, "tools")
	var c struct {
		Format string `json:"format"`
		Server struct{ Name string }
		Tools  []struct{ Name string }
	}
	raw, _ := os.ReadFile(snap)
	if err := json.Unmarshal(raw, &c); err != nil || c.Format != "mcptest-catalog" || c.Server.Name != "mcptest-demo" || len(c.Tools) < 5 {
		t.Fatalf("snapshot: %v %+v", err, c)
	}
	js := filepath.Join(dir, "same.json")
	if r := mcptest(t, "diff", snap, "--server", demoServer(), "--reporter", "json="+js); r.code != 0 {
		t.Fatalf("diff against the same server:\n%s", r)
	}
	if run, _ := toolkitRun(t, js); run.Summary.Total != 0 {
		t.Errorf("changes between a snapshot and its own server: %+v", run.Tests)
	}
	r = mcptest(t, "diff", snap, "--server", demoServer()+" --variant schema", "--changelog", "-", "--reporter", "json="+js)
	if r.code != 1 {
		t.Fatalf("diff against the changed demo: want exit 1\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "tool echo: new required argument times (`required-argument-added`)")

	every := filepath.Join(dir, "everything.json")
	args := append([]string{"snapshot-catalog"}, everythingServer(t)...)
	if r := mcptest(t, append(args, "-o", every)...); r.code != 0 {
		t.Fatalf("snapshot server-everything:\n%s", r)
	}
	args = append([]string{"diff", every}, everythingServer(t)...)
	if r := mcptest(t, args...); r.code != 0 {
		t.Fatalf("diff server-everything against itself:\n%s", r)
	}
	// Across servers everything is removed or added: breaking.
	if r := mcptest(t, "diff", snap, every); r.code != 1 || !strings.Contains(r.stdout, "tool echo") && !strings.Contains(r.stdout, "was removed") {
		t.Fatalf("demo vs server-everything:\n%s", r)
	}
}

// TestDiffBadInput exits 2 with the file named for a file that is no
// catalog, and with usage for a wrong argument count.
func TestDiffBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "mcptest-catalog", "version": 1, "tols": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	old, _ := craftedPair()
	r := mcptest(t, "diff", old, bad)
	if r.code != 2 || !strings.Contains(r.stderr, "bad.json") || !strings.Contains(r.stderr, "tols") {
		t.Errorf("bad catalog:\n%s", r)
	}
	if r := mcptest(t, "diff", old); r.code != 2 || !strings.Contains(r.stderr, "usage") {
		t.Errorf("one argument:\n%s", r)
	}
}
