package main

import (
	"github.com/mcptest/mcptest/internal/proc"

	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/testbin"
	"github.com/mcptest/mcptest/sdk"
)

// grader builds the test grader (internal/testbin/testdata/scorer).
func grader(t *testing.T) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/internal/testbin/testdata/scorer")
}

// score runs one grading of the test grader in mode through the real
// scorer, with extra entry fields.
func score(t *testing.T, e entry, output, criteria string) (sdk.ScoreResult, error) {
	t.Helper()
	cfg, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := json.Marshal(map[string]any{"input": "the prompt", "output": output, "criteria": criteria, "metadata": map[string]any{}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return execScorer{}.Score(ctx, sdk.ScoreInput{Key: "exec", Config: cfg, Envelope: env})
}

func TestGradePassAndFail(t *testing.T) {
	bin := grader(t)
	res, err := score(t, entry{Name: "g", Command: []string{bin, "grade"}}, "it is sunny", "sunny")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "pass" || res.Score == nil || *res.Score != 1 || res.CostUSD == nil || *res.CostUSD != 0.25 {
		t.Errorf("got %+v, want pass 1 cost 0.25", res)
	}
	if !strings.Contains(res.Reasoning, "input=the prompt") {
		t.Errorf("reasoning %q does not show the envelope's input reached the grader", res.Reasoning)
	}
	res, err = score(t, entry{Name: "g", Command: []string{bin, "grade"}}, "it rains", "sunny")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "fail" || *res.Score != 0 {
		t.Errorf("got %+v, want fail 0", res)
	}
}

func TestNullCost(t *testing.T) {
	res, err := score(t, entry{Name: "g", Command: []string{grader(t), "null-cost"}}, "x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if res.CostUSD != nil {
		t.Errorf("cost = %v, want nil for cost_usd: null", *res.CostUSD)
	}
}

func TestEnvAndCwd(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SCORER_MODE", "inherited")
	res, err := score(t, entry{Name: "g", Command: []string{grader(t), "grade"}, Env: map[string]string{"SCORER_MODE": "overlaid"}, Cwd: dir}, "x", "x")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if !strings.Contains(res.Reasoning, "mode=overlaid") || !strings.Contains(res.Reasoning, "cwd="+real) {
		t.Errorf("reasoning %q: want mode=overlaid and cwd=%s", res.Reasoning, real)
	}
}

func TestBadReplies(t *testing.T) {
	bin := grader(t)
	for _, tc := range []struct {
		mode string
		want error
		frag string
	}{
		{"bad-json", ErrOutput, `Score: 9/10`},
		{"no-score", ErrOutput, "no score"},
		{"flood", ErrOutput, "more than 1048576 bytes on stdout"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			_, err := score(t, entry{Name: "g", Command: []string{bin, tc.mode}}, "x", "x")
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.frag) {
				t.Errorf("err = %v, want %v mentioning %q", err, tc.want, tc.frag)
			}
		})
	}
}

func TestNonZeroExitQuotesStderrTail(t *testing.T) {
	t.Setenv("SCORER_API_KEY", "sk-test-000111")
	_, err := score(t, entry{Name: "g", Command: []string{grader(t), "fail", "3"}}, "x", "x")
	if !errors.Is(err, ErrExit) {
		t.Fatalf("err = %v, want ErrExit", err)
	}
	msg := err.Error()
	for _, want := range []string{"status 3", "trace line 30", "vendor refused key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	// The tail is bounded to the last lines.
	if strings.Contains(msg, "trace line 1\n") || strings.Contains(msg, "trace line 20\n") {
		t.Errorf("error quotes more than the last lines:\n%s", msg)
	}
}

func TestMissingProgram(t *testing.T) {
	_, err := score(t, entry{Name: "g", Command: []string{filepath.Join(t.TempDir(), "absent")}}, "x", "x")
	if err == nil || !strings.Contains(err.Error(), "could not start") {
		t.Errorf("err = %v, want a start failure", err)
	}
}

// TestTimeoutKillsTheGroup checks that a grader that hangs is stopped at
// timeout_ms with everything it started: the child it left in its process
// group is gone too.
func TestTimeoutKillsTheGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	_, err := score(t, entry{Name: "g", Command: []string{grader(t), "hang", pidFile}, TimeoutMS: 2000}, "x", "x")
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "process group was killed") {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	raw, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("the grader did not record its pids before the timeout: %v", rerr)
	}
	for _, f := range strings.Fields(string(raw)) {
		pid, _ := strconv.Atoi(f)
		if !proc.WaitGone(pid, 5*time.Second) {
			t.Fatalf("process %d outlived the grading", pid)
		}
	}
}
