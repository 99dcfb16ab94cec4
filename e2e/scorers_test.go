package e2e

import (
	"github.com/mcptest/mcptest/internal/proc"

	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/scorer"
	"github.com/mcptest/mcptest/internal/testbin"
)

// scorerSuite declares one exec scorer per behaviour of the test grader
// (internal/testbin/testdata/scorer), plus a private and an unavailable
// type. GRADER is the grader's path, CWD a directory, PIDS a file.
const scorerSuite = `servers:
  demo:
    command: ["DEMO"]
scorers:
  - name: grade
    type: exec
    command: ["GRADER", "grade"]
    env:
      SCORER_MODE: overlaid
    cwd: CWD
  - name: null-cost
    type: exec
    command: ["GRADER", "null-cost"]
  - name: bad-json
    type: exec
    command: ["GRADER", "bad-json"]
  - name: no-score
    type: exec
    command: ["GRADER", "no-score"]
  - name: fails
    type: exec
    command: ["GRADER", "fail", "3"]
    env:
      SCORER_API_KEY: ${SCORER_API_KEY}
  - name: hangs
    type: exec
    command: ["GRADER", "hang", "PIDS"]
    timeout_ms: 1500
  - name: private
    type: keyword
  - name: hosted
    type: braintrust
  - name: hangs-long
    type: exec
    command: ["GRADER", "hang", "PIDS.long"]
    timeout_ms: 120000
`

// scorerKey is the credential the failing grader echoes on stderr.
const scorerKey = "sk-scorer-e2e-0123456789"

// scorerSetup loads the scorer suite and a registry holding the bundled
// plugins and, when extra is set, a private plugin folder ahead of them.
func scorerSetup(t *testing.T, extra string) (*config.Suite, *plugin.Registry, *plugin.Host, string) {
	t.Helper()
	t.Setenv("SCORER_API_KEY", scorerKey)
	grader := testbin.Build(t, "github.com/mcptest/mcptest/internal/testbin/testdata/scorer")
	cwd := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	text := strings.NewReplacer("GRADER", grader, "CWD", cwd, "PIDS", pids).Replace(scorerSuite)
	s, err := config.Load(writeSuite(t, text))
	if err != nil {
		t.Fatal(err)
	}
	sources := []plugin.Source{{Dir: filepath.Join(binDir, "mcptest-plugins"), Priority: 10, Origin: "bundled"}}
	if extra != "" {
		sources = append([]plugin.Source{{Dir: extra, Priority: 0, Origin: "--plugin-dir"}}, sources...)
	}
	reg := plugin.NewRegistry(sources)
	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{CallTimeout: 30 * time.Second})
	t.Cleanup(func() {
		host.Close()
		assertNoOrphans(t)
	})
	return s, reg, host, pids
}

// grade resolves scorer name and grades output against criteria.
func grade(t *testing.T, s *config.Suite, reg *plugin.Registry, host *plugin.Host, name, output string) (*scorerEval, error) {
	t.Helper()
	sc, err := scorer.Resolve(reg, s, name)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ev, err := sc.Score(ctx, host, scorer.Input{Input: "what is the weather?", Output: output, Criteria: "sunny", Candidate: "response"})
	if err != nil {
		return nil, err
	}
	return &scorerEval{passed: ev.Passed, score: ev.Score, reason: ev.Reason, cost: ev.CostUSD, form: ev.Form, scorer: ev.Scorer}, nil
}

type scorerEval struct {
	passed       bool
	score        float64
	reason       string
	cost         *float64
	form, scorer string
}

// TestExecScorerPlugin drives the bundled exec scorer plugin process
// (found through its manifest, checksum verified, over gRPC) against a
// real grader process for every answer the contract covers.
func TestExecScorerPlugin(t *testing.T) {
	s, reg, host, _ := scorerSetup(t, "")

	ev, err := grade(t, s, reg, host, "grade", "it is sunny today")
	if err != nil {
		t.Fatal(err)
	}
	if !ev.passed || ev.score != 1 || ev.cost == nil || *ev.cost != 0.25 || ev.form != "scorer" || ev.scorer != "grade" {
		t.Errorf("pass: %+v", ev)
	}
	// env overlay and cwd reach the grader.
	cwd, _ := filepath.EvalSymlinks(s.Scorers[0].Cwd)
	mustContain(t, "reasoning", ev.reason, "input=what is the weather?", "mode=overlaid", "cwd="+cwd)

	ev, err = grade(t, s, reg, host, "grade", "rain all day")
	if err != nil || ev.passed || ev.score != 0 {
		t.Errorf("fail: %+v %v", ev, err)
	}

	ev, err = grade(t, s, reg, host, "null-cost", "sunny")
	if err != nil || ev.cost != nil || !ev.passed {
		t.Errorf("null cost: %+v %v", ev, err)
	}

	_, err = grade(t, s, reg, host, "bad-json", "sunny")
	if !errors.Is(err, plugin.ErrScoreFailed) {
		t.Errorf("non-JSON answer: err = %v", err)
	} else {
		mustContain(t, "non-JSON error", err.Error(), `scorer "bad-json"`, "not a JSON object", "Score: 9/10")
	}

	_, err = grade(t, s, reg, host, "no-score", "sunny")
	if err == nil || !strings.Contains(err.Error(), "no score") {
		t.Errorf("missing score: err = %v", err)
	}

	_, err = grade(t, s, reg, host, "fails", "sunny")
	if !errors.Is(err, plugin.ErrScoreFailed) {
		t.Fatalf("non-zero exit: err = %v", err)
	}
	msg := err.Error()
	mustContain(t, "exit error", msg, `scorer "fails": command "`, `-scorer" failed: exit status 3; last stderr lines:`, "trace line 30", "vendor refused key")
	if strings.Contains(msg, scorerKey) {
		t.Errorf("the scorer's key reached the error:\n%s", msg)
	}
	if strings.Contains(msg, "trace line 2\n") {
		t.Errorf("the stderr quote is not bounded to its tail:\n%s", msg)
	}

	// The plugin survived every bad answer: a good grading still works.
	if ev, err := grade(t, s, reg, host, "grade", "sunny"); err != nil || !ev.passed {
		t.Errorf("after the failures: %+v %v", ev, err)
	}
}

// TestExecScorerTimeoutKillsGroup: a grader that hangs is stopped at its
// timeout_ms together with the child it started, and the plugin reports
// the timeout; nothing of it is left running.
func TestExecScorerTimeoutKillsGroup(t *testing.T) {
	s, reg, host, pids := scorerSetup(t, "")
	_, err := grade(t, s, reg, host, "hangs", "sunny")
	if !errors.Is(err, plugin.ErrScoreFailed) || !strings.Contains(err.Error(), "timed out after 1.5s; its process group was killed") {
		t.Fatalf("err = %v", err)
	}
	raw, rerr := os.ReadFile(pids)
	if rerr != nil {
		t.Fatalf("the grader never wrote its pids: %v", rerr)
	}
	fields := strings.Fields(string(raw))
	if len(fields) != 2 {
		t.Fatalf("pids file %q", raw)
	}
	for _, f := range fields {
		pid, _ := strconv.Atoi(f)
		if !proc.WaitGone(pid, 5*time.Second) {
			t.Fatalf("process %d outlived its grading", pid)
		}
	}
}

// TestPrivateScorerPlugin: a team's own scorer type, installed with
// `mcptest plugins install` into a plugin directory, is discovered and
// graded with exactly like the bundled exec type.
func TestPrivateScorerPlugin(t *testing.T) {
	dir := install(t, "keywordscorer")
	s, reg, host, _ := scorerSetup(t, dir)
	ev, err := grade(t, s, reg, host, "private", "sunny spells")
	if err != nil {
		t.Fatal(err)
	}
	if !ev.passed || ev.score != 1 || ev.cost != nil || ev.reason != `looked for "sunny"` || ev.scorer != "private" {
		t.Errorf("private scorer: %+v", ev)
	}
	ev, err = grade(t, s, reg, host, "private", "overcast")
	if err != nil || ev.passed {
		t.Errorf("private scorer, no keyword: %+v %v", ev, err)
	}
	r := mcptest(t, "plugins", "list", "--plugin-dir", dir)
	mustContain(t, "plugins list", r.stdout, "keywordscorer 1.0.0", "scorer:   keyword", "exec 0.1.0", "scorer:   exec")
}

// TestUnknownScorerType: a type no plugin serves fails at resolution,
// from manifests alone, with the diagnostic and the entry's position.
func TestUnknownScorerType(t *testing.T) {
	s, reg, _, _ := scorerSetup(t, "")
	_, err := scorer.Resolve(reg, s, "hosted")
	if !errors.Is(err, scorer.ErrTypeUnavailable) {
		t.Fatalf("err = %v", err)
	}
	mustContain(t, "diagnostic", err.Error(), "suite.yml:32:11: /scorers/7/type: scorer type 'braintrust' not available in this build", "available scorer types: [exec]")
	// Without the private plugin, its type is unavailable too.
	if _, err := scorer.Resolve(reg, s, "private"); !errors.Is(err, scorer.ErrTypeUnavailable) {
		t.Errorf("private type without its plugin: err = %v", err)
	}
}

// TestDocumentedPythonScorer: the Python scorer docs/scorers.md lists is
// examples/scorers/keyword.py, and it grades through the bundled exec
// plugin as the docs say.
func TestDocumentedPythonScorer(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "scorers.md"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "examples", "scorers", "keyword.py")
	want, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	_, listing, ok := strings.Cut(string(doc), "```python\n")
	listing, _, _ = strings.Cut(listing, "```")
	if !ok || listing != string(want) {
		t.Errorf("the Python listing of docs/scorers.md differs from examples/scorers/keyword.py")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed to run the documented scorer (.ci/run installs it): %v", err)
	}
	text := `servers:
  demo:
    command: ["DEMO"]
scorers:
  - name: keyword
    type: exec
    command: ["python3", "SCRIPT"]
`
	s, err := config.Load(writeSuite(t, strings.ReplaceAll(text, "SCRIPT", script)))
	if err != nil {
		t.Fatal(err)
	}
	reg := plugin.NewRegistry([]plugin.Source{{Dir: filepath.Join(binDir, "mcptest-plugins"), Origin: "bundled"}})
	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{})
	defer func() {
		host.Close()
		assertNoOrphans(t)
	}()
	sc, err := scorer.Resolve(reg, s, "keyword")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ev, err := sc.Score(ctx, host, scorer.Input{Input: "What is the weather in Paris?", Output: "Sunny, 21 °C.", Criteria: "Sunny"})
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Passed || ev.Score != 1 || ev.CostUSD != nil || ev.Reason != "found 'Sunny'" {
		t.Errorf("eval = %+v", ev)
	}
	_, err = sc.Score(ctx, host, scorer.Input{Input: "q", Output: "a"})
	if err == nil || !strings.Contains(err.Error(), "failed: exit status 2") || !strings.Contains(err.Error(), "needs a free-form rubric") {
		t.Errorf("no criteria: err = %v", err)
	}
}

// TestExecScorerPluginStoppedMidGrading: when the scorer plugin ends
// while a grading is under way, stopped by mcptest (the end of a run,
// Ctrl-C) or killed outright (mcptest itself died), the grader and
// everything it started go too, though the grader's own timeout is far
// off.
func TestExecScorerPluginStoppedMidGrading(t *testing.T) {
	s, reg, _, pids := scorerSetup(t, "")
	pids += ".long"
	for _, how := range []string{"stopped", "killed"} {
		t.Run(how, func(t *testing.T) {
			_ = os.Remove(pids)
			host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{CallTimeout: 30 * time.Second})
			defer host.Close()
			sc, err := scorer.Resolve(reg, s, "hangs-long")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := sc.Score(context.Background(), host, scorer.Input{Input: "q", Output: "sunny"})
				done <- err
			}()
			raw := waitPids(t, pids)
			if how == "stopped" {
				host.Close()
			} else {
				killPlugin(t, "mcptest-plugin-exec")
			}
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("a grading cut short by the plugin's end succeeded")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the grading did not end with the plugin")
			}
			for _, f := range strings.Fields(raw) {
				pid, _ := strconv.Atoi(f)
				if !proc.WaitGone(pid, 5*time.Second) {
					t.Fatalf("process %d outlived its grading", pid)
				}
			}
		})
	}
}

// waitPids waits for the hanging grader to write its pids.
func waitPids(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, err := os.ReadFile(path)
		if err == nil && len(strings.Fields(string(raw))) == 2 {
			return string(raw)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the grader did not start: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killPlugin sends SIGKILL to this test process's child running the
// plugin executable named exe, as if mcptest had died without stopping
// it.
func killPlugin(t *testing.T, exe string) {
	t.Helper()
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || filepath.Base(target) != exe {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(stat), ')')
		if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == self {
			pid, _ := strconv.Atoi(e.Name())
			p, err := os.FindProcess(pid)
			if err == nil {
				err = p.Kill()
			}
			if err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no running %s started by this test", exe)
}
