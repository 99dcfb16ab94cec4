//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// quickSuite has one passing test.
const quickSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo passes
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "hi"}
`

// earlier writes the report an earlier run left at path.
func earlier(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("earlier report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustHoldEarlier(t *testing.T, path string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != "earlier report\n" {
		t.Errorf("%s no longer holds the earlier report: %q (%v)", filepath.Base(path), b, err)
	}
}

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	if es, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(es) > 0 {
		t.Errorf("temporary files left behind: %v", es)
	}
}

// A reporter that fails after writing half its report leaves the earlier
// report at its path whole; the run exits 2 naming it, and the other
// reports are written.
func TestFailedReportKeepsTheEarlierOne(t *testing.T) {
	plugins := install(t, "stall")
	dir := t.TempDir()
	half, js := filepath.Join(dir, "half.txt"), filepath.Join(dir, "run.json")
	earlier(t, half)
	r := mcptest(t, "run", "--plugin-dir", plugins, "--reporter", "halfway="+half, "--reporter", "json="+js, writeSuite(t, quickSuite))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "reporter halfway failed", "stall@0.0.1", "failing on purpose after a partial report")
	mustHoldEarlier(t, half)
	if b, _ := os.ReadFile(js); !strings.Contains(string(b), `"echo passes"`) {
		t.Errorf("the json report was not written: %q", b)
	}
	noTempFiles(t, dir)
	assertNoOrphans(t)
}

// A reporter that stops reading is cut off after --plugin-timeout and
// reported (exit 2, with its stderr); the other reporters still write, and
// its earlier report stays.
func TestStalledReporterCannotHangTheRun(t *testing.T) {
	plugins := install(t, "stall")
	dir := t.TempDir()
	stalled, js := filepath.Join(dir, "stalled.txt"), filepath.Join(dir, "run.json")
	earlier(t, stalled)
	r := mcptest(t, "run", "--plugin-dir", plugins, "--plugin-timeout", "2s",
		"--reporter", "stall="+stalled, "--reporter", "json="+js, writeSuite(t, quickSuite))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "reporter stall failed", "stall@0.0.1", `reporter "stall" did not finish its report within 2s (--plugin-timeout)`,
		"stall: not reading events on purpose")
	mustHoldEarlier(t, stalled)
	if b, _ := os.ReadFile(js); !strings.Contains(string(b), `"echo passes"`) {
		t.Errorf("the json report was not written: %q", b)
	}
	noTempFiles(t, dir)
	waitFor(t, "the stalled plugin to be gone", 3*time.Second, func() bool { return len(procsUnder(plugins)) == 0 })
	assertNoOrphans(t)
}

// Write errors exit 2 and name what could not be written: a full disk
// (/dev/full), a closed pipe on stdout, a job summary that cannot take
// more.
func TestReportWriteErrorsExit2(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	suite := writeSuite(t, quickSuite)
	t.Run("full disk", func(t *testing.T) {
		r := mcptest(t, "run", "--reporter", "json=/dev/full", "--reporter", "junit="+filepath.Join(t.TempDir(), "j.xml"), suite)
		if r.code != 2 {
			t.Fatalf("want exit 2:\n%s", r)
		}
		mustContain(t, "stderr", r.stderr, "reporter json failed: write report /dev/full: no space left on device")
	})
	t.Run("job summary", func(t *testing.T) {
		r := mcptestEnv(t, []string{"GITHUB_STEP_SUMMARY=/dev/full"}, "run", "--reporter", "markdown="+filepath.Join(t.TempDir(), "r.md"), suite)
		if r.code != 2 {
			t.Fatalf("want exit 2:\n%s", r)
		}
		mustContain(t, "stderr", r.stderr, "/dev/full ($GITHUB_STEP_SUMMARY): no space left on device")
	})
	t.Run("closed pipe", func(t *testing.T) {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pr.Close() // nobody will read the report
		cmd := exec.Command(filepath.Join(binDir, "mcptest"), "run", suite)
		cmd.Dir, cmd.Env, cmd.Stdout = root, cleanEnv(), pw
		var stderr syncBuffer
		cmd.Stderr = &stderr
		err = cmd.Run()
		pw.Close()
		if code := cmd.ProcessState.ExitCode(); code != 2 {
			t.Fatalf("exit %d (%v), want 2\n%s", code, err, stderr.String())
		}
		mustContain(t, "stderr", stderr.String(), "reporter pretty failed: write report stdout:", "broken pipe")
	})
	assertNoOrphans(t)
}

// Once the tests are done and a reporter holds the run up, a first
// interrupt waits for the reports; a second one stops mcptest at once,
// dropping the unfinished report and keeping the earlier one, with nothing
// left running.
func TestSecondInterruptStopsAtOnce(t *testing.T) {
	plugins := install(t, "stall")
	dir := t.TempDir()
	stalled, js := filepath.Join(dir, "stalled.txt"), filepath.Join(dir, "run.json")
	earlier(t, stalled)
	r := startMcptest(t, nil, "run", "--plugin-dir", plugins, "--plugin-timeout", "10m",
		"--reporter", "stall="+stalled, "--reporter", "json="+js, writeSuite(t, quickSuite))
	// The json report is complete: the run is waiting on the stalled one.
	waitFor(t, "the json report", 60*time.Second, func() bool {
		b, _ := os.ReadFile(js)
		return strings.Contains(string(b), `"exit_code"`)
	})
	r.signal(t, syscall.SIGINT)
	waitFor(t, "the first interrupt to be taken", 10*time.Second, func() bool {
		return strings.Contains(r.stderr.String(), "finishing the reports")
	})
	select {
	case <-r.done:
		t.Fatalf("mcptest gave up on its reports at the first interrupt:\n%s", r.stderr)
	default:
	}
	r.signal(t, syscall.SIGINT)
	if code := r.wait(t, 20*time.Second); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, r.stderr)
	}
	mustContain(t, "stderr", r.stderr.String(), "stopping at once")
	mustHoldEarlier(t, stalled)
	noTempFiles(t, dir)
	waitFor(t, "the stalled plugin to be gone", 3*time.Second, func() bool { return len(procsUnder(plugins)) == 0 })
	assertNoOrphans(t)
}

// SIGTERM ends mcptest whatever it is blocked on: here reading a suite
// that is a FIFO whose writer never writes. (mcptest may also refuse such
// a suite outright, before anything blocks: that is an exit 2 naming the
// FIFO.)
func TestSignalEndsRunBlockedOnFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "suite.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	r := startMcptest(t, nil, "run", fifo)
	// Opening the FIFO for writing without blocking succeeds once mcptest
	// has it open for reading; mcptest then waits on a read that never
	// gets data.
	var w *os.File
	waitFor(t, "mcptest to open the suite", 30*time.Second, func() bool {
		select {
		case <-r.done:
			return true
		default:
		}
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return false
		}
		w = f
		return true
	})
	if w == nil {
		if code := r.cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(strings.ToLower(r.stderr.String()), "fifo") {
			t.Fatalf("exit %d before any signal:\n%s", code, r.stderr)
		}
		return
	}
	defer w.Close()
	r.signal(t, syscall.SIGTERM)
	if code := r.wait(t, 10*time.Second); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, r.stderr)
	}
	mustContain(t, "stderr", r.stderr.String(), "interrupted by SIGTERM")
	assertNoOrphans(t)
}

// procsUnder lists running processes whose executable lies under dir
// (installed plugins live outside the build folders liveProcs watches).
func procsUnder(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && strings.HasPrefix(exe, dir) {
			out = append(out, e.Name()+" "+exe)
		}
	}
	return out
}

// A signal also ends mcptest while it waits for a plugin that never
// completes its start, and the plugin does not outlive it.
func TestSignalEndsRunBlockedOnPluginStart(t *testing.T) {
	plugins := install(t, "stall")
	r := startMcptest(t, []string{"STALL_HANDSHAKE=1"}, "run", "--plugin-dir", plugins, "--reporter", "stall", writeSuite(t, quickSuite))
	waitFor(t, "the plugin to be started", 30*time.Second, func() bool { return len(procsUnder(plugins)) > 0 })
	r.signal(t, syscall.SIGTERM)
	// The plugin's start timeout is 10 s: exiting well within it shows the
	// signal, not the timeout, ended the run.
	if code := r.wait(t, 8*time.Second); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, r.stderr)
	}
	mustContain(t, "stderr", r.stderr.String(), "interrupted by SIGTERM")
	waitFor(t, "the plugin to be gone", 3*time.Second, func() bool { return len(procsUnder(plugins)) == 0 })
	assertNoOrphans(t)
}
