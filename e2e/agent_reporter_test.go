package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/shlex"

	"github.com/mcptest/mcptest/sdk/report"
)

// verdictLine is how an agent reads the agent reporter's first line
// (docs/agent-interface.md).
var verdictLine = regexp.MustCompile(`^VERDICT (pass|warn|fail|error) (\d+)/(\d+) passed((?:, \d+ (?:failed|errored|warned|skipped|deferred))*) exit=(\d+)$`)

// agentVerdict parses the first line of an agent report.
type agentVerdict struct {
	verdict       string
	passed, total int
	counts        map[string]int
	exit          int
}

func parseAgentVerdict(t *testing.T, out string) agentVerdict {
	t.Helper()
	first, _, _ := strings.Cut(out, "\n")
	m := verdictLine.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("agent: first line %q does not parse", first)
	}
	v := agentVerdict{verdict: m[1], counts: map[string]int{}}
	v.passed, _ = strconv.Atoi(m[2])
	v.total, _ = strconv.Atoi(m[3])
	v.exit, _ = strconv.Atoi(m[5])
	for _, part := range strings.Split(strings.TrimPrefix(m[4], ", "), ", ") {
		var n int
		var name string
		if _, err := fmt.Sscanf(part, "%d %s", &n, &name); err == nil {
			v.counts[name] = n
		}
	}
	return v
}

// checkAllAgent reads the agent report as an agent would: the verdict
// agrees with the exit code and its counts with the run.
func checkAllAgent(t *testing.T, r *formatRun) {
	out := read(t, r.files["agent"])
	v := parseAgentVerdict(t, out)
	want := map[int]string{0: "pass", 1: "fail", 2: "error", report.ExitInterrupted: "error"}[r.code]
	if r.code == 0 && r.want.Warned > 0 {
		want = "warn"
	}
	if v.verdict != want || v.exit != r.code || v.passed != r.want.Passed || v.total != r.want.Total ||
		v.counts["warned"] != r.want.Warned || v.counts["skipped"] != r.want.Skipped || v.counts["failed"] != r.want.Failed {
		t.Errorf("agent: %+v; want %s exit %d summary %+v\n%s", v, want, r.code, r.want, out)
	}
	if r.want.Failed+r.want.Errored == 0 && strings.Contains(out, "\nFAIL ") {
		t.Errorf("agent: a failure block in a run without failures:\n%s", out)
	}
}

// TestAgentReporterRepro runs a suite with one failing test among passing
// ones through --reporter agent, then runs the repro command it printed:
// that command runs exactly the failing test, and fails again.
func TestAgentReporterRepro(t *testing.T) {
	suite := writeSuite(t, `servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo passes
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {exact: hi}
  - name: echo passes too
    server: demo
    tool: echo
    args: {message: hello}
    expect:
      - target: result.content[0].text
        matcher: {exact: hello}
  - name: it's the failing one
    server: demo
    tool: echo
    args: {message: hello}
    expect:
      - target: result.content[0].text
        matcher: {exact: goodbye}
`)
	r := mcptest(t, "run", "--reporter", "agent", suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	v := parseAgentVerdict(t, r.stdout)
	if v.verdict != "fail" || v.passed != 2 || v.total != 3 || v.counts["failed"] != 1 {
		t.Errorf("verdict %+v\n%s", v, r.stdout)
	}
	mustContain(t, "stdout", r.stdout, "FAIL "+suite+"::tools::it's the failing one\n", "  assert: result.content[0].text exact", `  expected: "goodbye"`, `  actual: "hello"`)
	if strings.Contains(r.stdout, "echo passes") {
		t.Errorf("a passed test is listed:\n%s", r.stdout)
	}
	var repro string
	for _, l := range strings.Split(r.stdout, "\n") {
		if after, ok := strings.CutPrefix(l, "  repro: "); ok {
			repro = after
		}
	}
	argv, err := shlex.Split(repro)
	if err != nil || len(argv) < 2 || argv[0] != "mcptest" {
		t.Fatalf("repro %q: %v", repro, err)
	}
	js := filepath.Join(t.TempDir(), "repro.json")
	rr := mcptest(t, append(argv[1:], "--reporter", "json="+js)...)
	if rr.code != 1 {
		t.Fatalf("repro %q: want exit 1\n%s", repro, rr)
	}
	run, _ := toolkitRun(t, js)
	if len(run.Tests) != 1 || run.Tests[0].Name != "it's the failing one" || run.Tests[0].Status != report.StatusFailed {
		t.Errorf("repro ran %+v", run.Tests)
	}
	if r := mcptest(t, "run", suite, "--id", "no such id"); r.code != 2 || !strings.Contains(r.stderr, `"no such id"`) {
		t.Errorf("unknown id:\n%s", r)
	}
	_ = os.Remove(js)
}
