package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trialsManifest is a mock whose read-only counter answers each call
// with the next text: a cached answer would repeat one.
const trialsManifest = `
tools:
  - name: counter
    annotations: {readOnlyHint: true}
    sequence:
      - result: {text: one}
      - result: {text: two}
      - result: {text: three}
  - name: flaky
    sequence:
      - result: {text: ok}
      - result: {text: no, is_error: true}
`

func trialsSuite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "mock.yml")
	if err := os.WriteFile(manifest, []byte(trialsManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return writeSuite(t, `
servers:
  mock:
    command: ["`+filepath.Join(binDir, "mcptest")+`", "mock", "`+manifest+`"]
tools:
  - name: counter
    server: mock
    tool: counter
  - name: flaky
    server: mock
    tool: flaky
    expect:
      - target: result.isError
        matcher: {exact: false}
`)
}

type trialsReport struct {
	ExitCode int `json:"exit_code"`
	Tests    []struct {
		ID       string `json:"id"`
		TrialOf  string `json:"trial_of"`
		Trial    int    `json:"trial"`
		Status   string `json:"status"`
		CacheHit bool   `json:"cache_hit"`
		Frames   []struct {
			Direction string          `json:"direction"`
			Data      json.RawMessage `json:"data"`
		} `json:"frames"`
	} `json:"tests"`
	Trials *struct {
		K        int     `json:"k"`
		Pass     string  `json:"pass"`
		PassAtK  float64 `json:"pass_at_k"`
		PassHatK float64 `json:"pass_hat_k"`
		Flaky    int     `json:"flaky"`
		Tests    []struct {
			Name   string `json:"name"`
			Passed int    `json:"passed"`
			Flaky  bool   `json:"flaky"`
		} `json:"tests"`
	} `json:"trials"`
}

func readTrials(t *testing.T, path string) trialsReport {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r trialsReport
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTrials runs each test three times: every trial of the cacheable
// counter reaches the server (three different answers, no cache hit),
// the alternating tool is flaky with pass@3 but not pass^3, the run
// fails under the default pass^k verdict and passes under
// --trials-pass any, and the pretty and markdown reporters show it.
func TestTrials(t *testing.T) {
	suite := trialsSuite(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	md := filepath.Join(dir, "run.md")
	r := mcptest(t, "run", "--trials", "3", "--jobs", "1", "--wire", "all", "--reporter", "pretty", "--reporter", "json="+out, "--reporter", "markdown="+md, suite)
	if r.code != 1 {
		t.Fatalf("a flaky test fails under pass^k:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "trials (3 per test)", "pass^3 50.0%", "flaky  flaky", "2/3 trials passed")
	rep := readTrials(t, out)
	if len(rep.Tests) != 6 || rep.Trials == nil || rep.Trials.K != 3 || rep.Trials.Flaky != 1 || rep.Trials.PassAtK != 1 || rep.Trials.PassHatK != 0.5 {
		t.Fatalf("trials summary = %+v (%d tests)", rep.Trials, len(rep.Tests))
	}
	texts := map[string]bool{}
	for _, tt := range rep.Tests {
		if strings.HasSuffix(tt.TrialOf, "::counter") {
			if tt.CacheHit {
				t.Errorf("trial %d of counter came from the cache", tt.Trial)
			}
			for _, f := range tt.Frames {
				if f.Direction == "recv" {
					texts[string(f.Data)] = true
				}
			}
		}
	}
	// Without the trial in the cache key, trials 2 and 3 would be cache
	// hits repeating "one" (two identical tests in one run share an
	// answer: docs/caching.md).
	if len(texts) != 3 {
		t.Errorf("the three trials of counter should each reach the server and get a different answer; got %d distinct", len(texts))
	}
	raw, _ := os.ReadFile(md)
	mustContain(t, "markdown", string(raw), "### Trials", "| flaky | 2/3 | flaky |")

	any := filepath.Join(dir, "any.json")
	r = mcptest(t, "run", "--trials", "3", "--jobs", "1", "--trials-pass", "any", "--reporter", "json="+any, suite)
	if r.code != 0 {
		t.Fatalf("under pass@k one passing trial is enough:\n%s", r)
	}
	if rep := readTrials(t, any); rep.ExitCode != 0 || rep.Trials.Pass != "any" {
		t.Errorf("the report should agree with the exit code: %+v", rep.Trials)
	}
	r = mcptest(t, "run", "--trials", "0", suite)
	if r.code != 2 || !strings.Contains(r.stderr, "--trials 0") {
		t.Errorf("--trials 0 should be refused:\n%s", r)
	}
}

// TestCompareRuns saves a run, changes the suite and compares: one
// regression, one fix, one new failing test, one removed test;
// --fail-on-regression fails on them but not on a failure that was
// already there, and --min-pass-rate gates on the share of passes.
func TestCompareRuns(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yml")
	write := func(tests ...string) {
		text := "servers:\n  demo:\n    command: [\"" + filepath.Join(binDir, "mcptest-demo-server") + "\"]\ntools:\n"
		for _, tt := range tests {
			name, want, _ := strings.Cut(tt, "=")
			text += "  - name: " + name + "\n    server: demo\n    tool: echo\n    args: {message: hi}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: " + want + "}\n"
		}
		if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := filepath.Join(dir, "before.json")
	write("kept=hi", "broken=nope", "stays_broken=nope", "dropped=hi")
	if r := mcptest(t, "run", "--reporter", "json="+before, suite); r.code != 1 {
		t.Fatalf("the first run has failures:\n%s", r)
	}
	write("kept=nope", "broken=hi", "stays_broken=nope", "added=nope")
	r := mcptest(t, "run", "--compare-to", before, "--fail-on-regression", suite)
	if r.code != 1 {
		t.Fatalf("a regression fails the run:\n%s", r)
	}
	mustContain(t, "comparison", r.stderr, "1 regression(s), 1 new failure(s), 1 fixed, 1 new, 1 removed",
		"regression: kept (passed -> failed)", "new failure: added", "fixed: broken (failed -> passed)", "removed: dropped")

	write("kept=hi", "broken=hi", "stays_broken=nope", "dropped=hi")
	if r := mcptest(t, "run", "--compare-to", before, suite); r.code != 1 {
		t.Fatalf("without --fail-on-regression a failing test fails the run:\n%s", r)
	}
	if r := mcptest(t, "run", "--compare-to", before, "--fail-on-regression", suite); r.code != 0 {
		t.Fatalf("a failure that was already there does not fail a --fail-on-regression run:\n%s", r)
	}
	if r := mcptest(t, "run", "--compare-to", before, "--fail-on-regression", "--min-pass-rate", "80", suite); r.code != 1 || !strings.Contains(r.stderr, "pass rate 75.0% is below --min-pass-rate 80%") {
		t.Fatalf("3 of 4 passing is below 80%%:\n%s", r)
	}
	if r := mcptest(t, "run", "--fail-on-regression", suite); r.code != 2 {
		t.Fatalf("--fail-on-regression without --compare-to is refused:\n%s", r)
	}
}
