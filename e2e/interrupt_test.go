package e2e

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// interruptSuite runs in order (-j 1): a test that passes, one that is
// under way when the run is interrupted, and two never reached.
const interruptSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: first passes
    server: demo
    tool: slow
    args: {ms: 1}
    expect:
      - target: result.content[0].text
        matcher: {exact: "done"}
  - name: slow one is cut short
    server: demo
    tool: slow
    args: {ms: 60000}
    expect:
      - target: result.content[0].text
        matcher: {exact: "done"}
  - name: never reached a
    server: demo
    tool: slow
    args: {ms: 1}
  - name: never reached b
    server: demo
    tool: slow
    args: {ms: 1}
`

// syncBuffer is a bytes.Buffer a test can read while a process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// running is an mcptest started in the background.
type running struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan struct{}
}

func startMcptest(t *testing.T, env []string, args ...string) *running {
	t.Helper()
	r := &running{cmd: exec.Command(filepath.Join(binDir, "mcptest"), args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	r.cmd.Dir = root
	r.cmd.Env = append(cleanEnv(), env...)
	r.cmd.Stdout, r.cmd.Stderr = r.stdout, r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.cmd.Wait(); close(r.done) }()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

func (r *running) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// wait returns the exit code, failing the test if mcptest has not exited
// within limit.
func (r *running) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-r.done:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		t.Fatalf("mcptest did not exit within %s\nstdout:\n%s\nstderr:\n%s", limit, r.stdout, r.stderr)
		return 0
	}
}

// waitFor polls until cond holds, failing the test after limit. It is for
// states that give this process no event: files and processes that
// mcptest (not this test) creates and removes. What mcptest reports has
// an event: read its ndjson stream (awaitEvent).
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// liveEvents reads the ndjson report being written beside target (its
// temporary file), or the file itself.
func liveEvents(target string) string {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp"))
	var all []byte
	for _, m := range append(matches, target) {
		b, _ := os.ReadFile(m)
		all = append(all, b...)
	}
	return string(all)
}

// An interrupt part-way through a run still leaves every report complete:
// the test that passed keeps its verdict, the one under way and those not
// begun are skipped, the report says exit_code 130, every format passes
// its consumer, the report it replaced was whole until then, and nothing
// is left running.
func TestInterruptWritesCompleteReports(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			suite := writeSuite(t, interruptSuite)
			dir := t.TempDir()
			files := map[string]string{"step-summary": filepath.Join(dir, "step-summary.md")}
			args := []string{"run", "-j", "1"}
			for _, f := range formats {
				files[f] = filepath.Join(dir, "out."+f)
				args = append(args, "--reporter", f+"="+files[f])
				// An earlier run's report is in place.
				if err := os.WriteFile(files[f], []byte("earlier report\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args = append(args, suite)
			r := startMcptest(t, []string{"GITHUB_STEP_SUMMARY=" + files["step-summary"]}, args...)
			waitFor(t, "the slow test to start", 60*time.Second, func() bool {
				return strings.Contains(liveEvents(files["ndjson"]), `"name":"slow one is cut short"`)
			})
			// Until the run ends, the earlier reports stay whole.
			if b, _ := os.ReadFile(files["json"]); string(b) != "earlier report\n" {
				t.Errorf("the earlier report was touched during the run: %q", b)
			}
			r.signal(t, sig)
			if code := r.wait(t, 60*time.Second); code != 130 {
				t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, r.stdout, r.stderr)
			}

			b, err := os.ReadFile(files["json"])
			if err != nil {
				t.Fatal(err)
			}
			var run report.Run
			if err := json.Unmarshal(b, &run); err != nil {
				t.Fatalf("the json report does not parse: %v\n%s", err, b)
			}
			if run.ExitCode != 130 {
				t.Errorf("exit_code %d, want 130", run.ExitCode)
			}
			want := map[string]string{
				"first passes":          "passed",
				"slow one is cut short": "skipped: run interrupted while the test ran",
				"never reached a":       "skipped: run interrupted before the test started",
				"never reached b":       "skipped: run interrupted before the test started",
			}
			for _, tc := range run.Tests {
				got := string(tc.Status)
				if tc.Error != nil {
					got += ": " + tc.Error.Message
				}
				if !strings.HasPrefix(got, want[tc.Name]) {
					t.Errorf("%s: %s, want %s", tc.Name, got, want[tc.Name])
				}
			}
			if len(run.Errors) != 1 || !strings.Contains(run.Errors[0].Message, "interrupted by "+map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]) {
				t.Errorf("run errors %+v, want the interrupt named", run.Errors)
			}
			checkFormats(t, files, report.Summary{Total: 4, Passed: 1, Skipped: 3}, []string{"first passes", "never reached b"})
			checkJUnitSkips(t, files["junit"], 3)
			if tap, _ := os.ReadFile(files["tap"]); !strings.HasSuffix(string(tap), "1..4\n") {
				t.Errorf("TAP lacks its plan:\n%s", tap)
			}
			if es, _ := filepath.Glob(filepath.Join(dir, ".*")); len(es) > 0 {
				t.Errorf("temporary files left behind: %v", es)
			}
			assertNoOrphans(t)
		})
	}
}

// checkJUnitSkips parses a JUnit file and counts its skipped test cases.
func checkJUnitSkips(t *testing.T, path string, want int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the junit report does not parse: %v\n%s", err, b)
	}
	skipped := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Skipped != nil {
				skipped++
			}
		}
	}
	if skipped != want {
		t.Errorf("junit: %d skipped test cases, want %d\n%s", skipped, want, b)
	}
}
