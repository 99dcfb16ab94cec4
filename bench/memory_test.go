package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The memory budgets of DESIGN.md: "a 10,000-test run stays under 200 MB
// RSS; a 50 MB tool response is handled without copies that multiply it".
// Both are read as mcptest's own peak resident set (VmHWM); the servers and
// plugins are other processes with budgets of their own.

// hugeResponse is the chaos server's default big answer, 50 MB.
const hugeResponse = 50 << 20

// BenchmarkMemory runs mcptest on a one-test suite (the floor: what the
// process needs anyway), on a 10,000-test suite, and on a test whose
// answer is 50 MB, and reports the peak resident set of each run.
// x-response is the 50 MB run's peak above the floor, in multiples of the
// response: 1 would be the response held once.
func BenchmarkMemory(b *testing.B) {
	bins := builtBinaries(b)
	dir := b.TempDir()
	chaos := filepath.Join(dir, "chaos")
	build := exec.Command("go", "build", "-o", chaos, "./examples/servers/chaos")
	build.Dir = moduleRoot(b)
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the chaos server: %v\n%s", err, out)
	}
	one := filepath.Join(dir, "one.yml")
	writeSuite(b, one, bins.demo, 1)
	many := filepath.Join(dir, "many.yml")
	writeSuite(b, many, bins.demo, 10_000)
	big := filepath.Join(dir, "big.yml")
	suite := fmt.Sprintf("servers:\n  chaos:\n    command: [%q]\ntools:\n  - name: big\n    server: chaos\n    tool: big\n    expect:\n"+
		"      - target: result.content[0].text\n        matcher: {starts-with: BEGINxxx}\n"+
		"      - target: result.content[0].text\n        matcher: {contains: xxxEND}\n", chaos)
	if err := os.WriteFile(big, []byte(suite), 0o644); err != nil {
		b.Fatal(err)
	}

	// The same response with failing assertions: an exact comparison (its
	// failure carries the actual value and a diff) and a substring search.
	// A failure must not multiply the response either.
	bigFail := filepath.Join(dir, "big-fail.yml")
	failing := fmt.Sprintf("servers:\n  chaos:\n    command: [%q]\ntools:\n  - name: big\n    server: chaos\n    tool: big\n    expect:\n"+
		"      - target: result.content[0].text\n        matcher: {exact: nope}\n"+
		"      - target: result.content[0].text\n        matcher: {contains: NOT-THERE}\n", chaos)
	if err := os.WriteFile(bigFail, []byte(failing), 0o644); err != nil {
		b.Fatal(err)
	}

	var floor, tenK, huge, hugeFail float64
	for range b.N {
		floor += peakRSS(b, bins, dir, one, 0)
		tenK += peakRSS(b, bins, dir, many, 0)
		huge += peakRSS(b, bins, dir, big, 0)
		hugeFail += peakRSS(b, bins, dir, bigFail, 1)
	}
	n := float64(b.N)
	floor, tenK, huge, hugeFail = floor/n, tenK/n, huge/n, hugeFail/n
	b.ReportMetric(floor, "MB-floor")
	b.ReportMetric(tenK, "MB-10k-tests")
	b.ReportMetric(huge, "MB-50MB-response")
	b.ReportMetric((huge-floor)/float64(hugeResponse>>20), "x-response")
	b.ReportMetric(hugeFail, "MB-50MB-failing")
	b.ReportMetric((hugeFail-floor)/float64(hugeResponse>>20), "x-failing")
}

// peakRSS runs `mcptest run suite`, which must exit with wantCode, and
// returns its peak resident set in MB, read from /proc while it runs
// (VmHWM only grows, so the last reading is the peak up to a few
// milliseconds before the exit).
func peakRSS(b *testing.B, bins binaries, dir, suite string, wantCode int) float64 {
	b.Helper()
	mb, _ := peakRSSOf(b, bins, dir, wantCode, "run", suite, "--reporter", "json", "-o", os.DevNull)
	return mb
}

// peakRSSOf runs mcptest with args, which must exit with wantCode, and
// returns its peak resident set in MB and its wall time.
func peakRSSOf(b *testing.B, bins binaries, dir string, wantCode int, args ...string) (float64, time.Duration) {
	b.Helper()
	suite := strings.Join(args, " ")
	cmd := exec.Command(bins.mcptest, args...)
	cmd.Dir = dir
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var peak float64
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if kb, ok := vmHWM(status); ok && kb > peak {
			peak = kb
		}
		select {
		case err := <-done:
			if code := cmd.ProcessState.ExitCode(); code != wantCode {
				b.Fatalf("mcptest %s: exit %d (%v), want %d", suite, code, err, wantCode)
			}
			if peak == 0 {
				b.Skip("no /proc/PID/status readings on this system")
			}
			return peak / 1024, time.Since(start)
		case <-tick.C:
		}
	}
}

// vmHWM reads the peak resident set, in kB, from a /proc status file.
func vmHWM(path string) (float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb, err == nil
		}
	}
	return 0, false
}
