package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/proc"
	"github.com/mcptest/mcptest/internal/testbin"
	"github.com/mcptest/mcptest/sdk/report"
)

// scorerFailureSuite has one eval per way a grader can fail. GRADER is
// the test grader, PIDS the file its hanging mode writes.
const scorerFailureSuite = `
servers:
  demo:
    command: ["DEMO"]
scorers:
  - {name: garbled, type: exec, command: ["GRADER", "bad-json"]}
  - name: refused
    type: exec
    command: ["GRADER", "fail", "3"]
    env: {SCORER_API_KEY: "${SCORER_API_KEY}"}
  - {name: stuck, type: exec, command: ["GRADER", "hang", "PIDS"], timeout_ms: 1500}
  - {name: fine, type: exec, command: ["GRADER", "grade"]}
evals:
  - {name: garbled answer, server: demo, prompt: "weather?", response: "sunny", rubric: sunny, scorer: garbled}
  - {name: grader exits 3, server: demo, prompt: "weather?", response: "sunny", rubric: sunny, scorer: refused}
  - {name: grader hangs, server: demo, prompt: "weather?", response: "sunny", rubric: sunny, scorer: stuck}
  - {name: grader answers, server: demo, prompt: "weather?", response: "sunny", rubric: sunny, scorer: fine}
`

// TestEvalScorerFailures: through mcptest eval, each way a grader fails
// errors its own eval with the reason (exit 2) while the others are
// graded; the stderr tail is quoted with the scorer's key masked in the
// report and the output; a grader that hangs is killed with its process
// group at timeout_ms; the evidence pack of the run carries the grade.
func TestEvalScorerFailures(t *testing.T) {
	grader := testbin.Build(t, "github.com/mcptest/mcptest/internal/testbin/testdata/scorer")
	pids := filepath.Join(t.TempDir(), "pids")
	suite := writeSuite(t, strings.NewReplacer("GRADER", grader, "PIDS", pids).Replace(scorerFailureSuite))
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	env := []string{"SCORER_API_KEY=" + scorerKey}
	r := mcptestEnv(t, env, "eval", "--reporter", "json="+out, "--reporter", "pretty", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 (three evals errored):\n%s", r)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), scorerKey) || strings.Contains(r.stdout+r.stderr, scorerKey) {
		t.Errorf("the scorer's key reached the report or the output")
	}
	run := readRun(t, out)
	if len(run.Tests) != 4 {
		t.Fatalf("tests: %d", len(run.Tests))
	}
	for i, want := range []string{"Score: 9/10", "failed: exit status 3", "timed out after 1.5s; its process group was killed"} {
		tc := run.Tests[i]
		if tc.Status != report.StatusErrored || tc.Error == nil || !strings.Contains(tc.Error.Message, want) {
			t.Errorf("%s: %s %+v, want errored with %q", tc.Name, tc.Status, tc.Error, want)
		}
	}
	if e := run.Tests[1].Error; e != nil {
		mustContain(t, "exit error", e.Message, "trace line 30", "vendor refused key")
	}
	if tc := run.Tests[3]; tc.Status != report.StatusPassed || tc.Eval == nil || tc.Eval.Form != "scorer" {
		t.Errorf("the good grader: %s %+v", tc.Status, tc.Eval)
	}
	ids, err := os.ReadFile(pids)
	if err != nil {
		t.Fatalf("the hanging grader never started: %v", err)
	}
	for _, f := range strings.Fields(string(ids)) {
		pid, _ := strconv.Atoi(f)
		if !proc.WaitGone(pid, 5*time.Second) {
			t.Fatalf("process %d outlived its grading", pid)
		}
	}
	assertNoOrphans(t)

	// The evidence pack of the eval run holds the grade and verifies.
	pack := filepath.Join(dir, "pack.json")
	if r := mcptest(t, "report", out, "--format", "evidence", "-o", pack); r.code != 0 {
		t.Fatalf("evidence:\n%s", r)
	}
	p, _ := os.ReadFile(pack)
	mustContain(t, "pack", string(p), `"form": "scorer"`, `"scorer": "fine"`, `"status": "errored"`)
	if v := mcptest(t, "report", "verify", pack); v.code != 0 {
		t.Fatalf("verify:\n%s", v)
	} else {
		mustContain(t, "verify", v.stdout, "4 verdicts, 1 grades")
	}
}

// TestEvalPrivateScorerType: a scorer type served by a private plugin
// grades evals through mcptest eval --plugin-dir; without the plugin the
// same suite stops before anything starts, naming the type.
func TestEvalPrivateScorerType(t *testing.T) {
	dir := install(t, "keywordscorer")
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
scorers:
  - {name: kw, type: keyword}
evals:
  - {name: has it, server: demo, prompt: "weather?", response: "sunny spells", rubric: sunny, scorer: kw}
  - {name: lacks it, server: demo, prompt: "weather?", response: "overcast", rubric: sunny, scorer: kw}
`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "eval", "--plugin-dir", dir, "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (one eval fails):\n%s", r)
	}
	run := readRun(t, out)
	if run.Tests[0].Status != report.StatusPassed || run.Tests[1].Status != report.StatusFailed ||
		run.Tests[0].Eval == nil || run.Tests[0].Eval.Reason != `looked for "sunny"` || run.Tests[0].Eval.CostUSD != nil {
		t.Errorf("tests: %+v", run.Tests)
	}
	r = mcptest(t, "eval", suite)
	if r.code != 2 {
		t.Fatalf("without the plugin: want exit 2\n%s", r)
	}
	mustContain(t, "diagnostic", r.stderr, "scorer type 'keyword' not available in this build", "suite.yml:6:")
	// validate resolves the scorer types too, as eval does: with the
	// plugin the suite is valid, without it the same diagnostic; a run,
	// which leaves evals to mcptest eval, does not need the type.
	if v := mcptest(t, "validate", "--plugin-dir", dir, suite); v.code != 0 {
		t.Fatalf("validate with the plugin: want exit 0\n%s", v)
	}
	v := mcptest(t, "validate", suite)
	if v.code != 2 {
		t.Fatalf("validate without the plugin: want exit 2\n%s", v)
	}
	mustContain(t, "validate diagnostic", v.stderr, "scorer type 'keyword' not available in this build", "suite.yml:6:")
	if rr := mcptest(t, "run", "--reporter", "json="+filepath.Join(t.TempDir(), "r.json"), suite); rr.code != 0 {
		t.Fatalf("run without the plugin (evals are left to mcptest eval): want exit 0\n%s", rr)
	}
	assertNoOrphans(t)
}

// TestEvalScorerExample: examples/scorers/keyword.yml grades with the
// documented Python scorer, key-free, from the repository layout.
func TestEvalScorerExample(t *testing.T) {
	work := t.TempDir()
	for name, target := range map[string]string{"bin": binDir, "examples": filepath.Join(root, "examples")} {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	r := mcptestIn(t, work, noModelKeys, "eval", filepath.Join("examples", "scorers", "keyword.yml"))
	if r.code != 0 {
		t.Fatalf("the example should pass:\n%s", r)
	}
	mustContain(t, "example", r.stdout, "forecast mentions the sky", "refusal says it cannot help", "2 passed")
}
