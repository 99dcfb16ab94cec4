package compliance

import (
	"strings"
	"testing"
)

// TestCrashIsChargedToItsCheck: over stdio the check that crashed the
// server fails and the next one, on a fresh process, is unaffected.
func TestCrashIsChargedToItsCheck(t *testing.T) {
	rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=crash-on-garbage"}}, Options{Only: []string{"J05", "J06"}})
	j05 := rs["J05"]
	if j05.Status != Fail || !hasFinding(j05, "server still running after the check") || !strings.Contains(j05.Stderr, "giving up") {
		t.Errorf("J05 should fail for the crash, with the stderr tail: %+v", j05)
	}
	if rs["J06"].Status != Pass {
		t.Errorf("J06 ran on a fresh process and should pass: %s %s", rs["J06"].Status, rs["J06"].Message)
	}
}

// TestHTTPServerDeathIsCharged: over HTTP the check after which the server
// stops answering fails, and every later check is errored.
func TestHTTPServerDeathIsCharged(t *testing.T) {
	url := startServer(t, fakeBin(t), []string{"MCPTEST_FAKE=crash-on-garbage"}, "--http", "127.0.0.1:0")
	rs := runChecks(t, Target{URL: url}, Options{Only: []string{"J04", "J05", "J06"}})
	if rs["J04"].Status != Pass {
		t.Errorf("J04: %s", rs["J04"].Status)
	}
	if r := rs["J05"]; r.Status != Fail || !hasFinding(r, "server still answering after the check") {
		t.Errorf("J05: %+v", r)
	}
	if r := rs["J06"]; r.Status != Errored || !strings.Contains(r.Message, "after check J05") {
		t.Errorf("J06: %s %s", r.Status, r.Message)
	}
}

func hasFinding(r *Result, name string) bool {
	for _, f := range r.Findings {
		if f.Name == name && f.Status == Fail {
			return true
		}
	}
	return false
}
