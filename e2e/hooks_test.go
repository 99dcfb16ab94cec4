package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestHooksContextExample runs examples/hooks-context the way its header
// says: from a folder holding bin/ and examples/ (the repository root for
// a user; here a temporary folder linking both), through real hook
// processes and real plugins.
func TestHooksContextExample(t *testing.T) {
	work := t.TempDir()
	for name, target := range map[string]string{"bin": binDir, "examples": filepath.Join(root, "examples")} {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	suite := filepath.Join("examples", "hooks-context", "suite.yml")

	// Without a token the tagged test is skipped by the beforeEach hook.
	r := mcptestIn(t, work, []string{"DEMO_API_TOKEN="}, "run", "--reporter", "json", suite)
	run := decodeHooksRun(t, r)
	want := map[string]report.Status{
		"echo needs no credentials":          report.StatusPassed,
		"greet is tagged as needing a token": report.StatusSkipped,
		"add runs either way":                report.StatusPassed,
	}
	for _, tr := range run.Tests {
		if tr.Status != want[tr.Name] {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
		}
		if len(tr.Hooks) != 2 || tr.Hooks[0].Phase != report.HookBeforeEach || tr.Hooks[1].Phase != report.HookAfterEach {
			t.Errorf("%s: hooks %+v", tr.Name, tr.Hooks)
		}
	}
	skipped := run.Tests[1]
	if skipped.Error == nil || skipped.Error.Message != "beforeEach hook: DEMO_API_TOKEN is not set" || skipped.Hooks[0].Skip != "DEMO_API_TOKEN is not set" {
		t.Errorf("skip reason: %+v %+v", skipped.Error, skipped.Hooks)
	}
	dir := checkAfterAll(t, run, "pass\techo needs no credentials\nskip\tgreet is tagged as needing a token\npass\tadd runs either way\n")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("afterAll left the scratch directory %s behind (%v)", dir, err)
	}

	// With one, every test runs.
	r = mcptestIn(t, work, []string{"DEMO_API_TOKEN=demo"}, "run", "--reporter", "json", suite)
	run = decodeHooksRun(t, r)
	if run.Summary.Passed != 3 {
		t.Errorf("with a token: %+v", run.Summary)
	}
	checkAfterAll(t, run, "pass\tgreet is tagged as needing a token\n")

	// The pretty reporter says why the test was skipped.
	r = mcptestIn(t, work, []string{"DEMO_API_TOKEN="}, "run", suite)
	mustContain(t, "stdout", r.stdout, "beforeEach hook: DEMO_API_TOKEN is not set", "2 passed", "1 skipped")
}

// decodeHooksRun checks a run exited 0 and decodes its JSON report.
func decodeHooksRun(t *testing.T, r result) *report.Run {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("run failed:\n%s", r)
	}
	var run report.Run
	if err := json.Unmarshal([]byte(r.stdout), &run); err != nil {
		t.Fatalf("report: %v\n%s", err, r)
	}
	return &run
}

// checkAfterAll checks the run's hooks (context beforeAll, plain afterAll)
// and that afterAll printed verdicts, and returns the scratch directory
// it reported.
func checkAfterAll(t *testing.T, run *report.Run, verdicts string) string {
	t.Helper()
	if len(run.Hooks) != 2 || run.Hooks[0].Mode != "context" || run.Hooks[0].Stdout != "" || run.Hooks[1].Phase != report.HookAfterAll {
		t.Fatalf("run hooks = %+v", run.Hooks)
	}
	out := run.Hooks[1].Stdout
	if run.Hooks[1].Status != report.StatusPassed || !strings.Contains(out, verdicts) {
		t.Errorf("afterAll = %+v, want verdicts %q", run.Hooks[1], verdicts)
	}
	m := regexp.MustCompile(`verdicts recorded in (\S+):`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("afterAll output names no directory: %q", out)
	}
	return m[1]
}
