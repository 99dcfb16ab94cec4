package compliance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// starts runs the checks one at a time against the fake and returns how
// many server processes they started.
func starts(t *testing.T, fake string, only ...string) (int, map[string]*Result) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "starts")
	rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=" + fake, "MCPTEST_FAKE_STARTS=" + log}},
		Options{Only: only, Jobs: 1})
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return len(strings.Fields(string(raw))), rs
}

// TestReuseSharesOneServer: checks that only send well-formed requests
// take the initialized server over from the handshake and from each
// other, instead of starting one each.
func TestReuseSharesOneServer(t *testing.T) {
	n, rs := starts(t, "", "J02", "J03", "J04", "T01", "T06", "R02")
	if n != 1 {
		t.Errorf("%d server starts, want 1", n)
	}
	for id, r := range rs {
		if r.Status != Pass {
			t.Errorf("%s on a reused server: %s %s", id, r.Status, r.Message)
		}
	}
}

// TestReuseNeedsEveryAnswer: a session with a request still unanswered
// (the slow tool's call) is not handed on, so its late answer can never
// reach the next check; checks outside the list always start their own.
func TestReuseNeedsEveryAnswer(t *testing.T) {
	n, rs := starts(t, "slow-tool", "T05", "T06")
	if n != 2 {
		t.Errorf("%d server starts, want 2 (T05 takes the handshake's, T06 needs a new one)", n)
	}
	if rs["T05"].Status != Pass || rs["T06"].Status != Pass {
		t.Errorf("T05 %s, T06 %s", rs["T05"].Status, rs["T06"].Status)
	}
	n, _ = starts(t, "", "J05", "L01")
	if n != 3 {
		t.Errorf("%d server starts, want 3 (J05 and L01 never reuse)", n)
	}
}

// TestReuseNeverHidesABanner: a server that prints a non-JSON line at
// start is never handed on, so J09 still sees the banner when it would
// otherwise reuse a process.
func TestReuseNeverHidesABanner(t *testing.T) {
	n, rs := starts(t, "banner", "J02", "J09")
	if rs["J09"].Status != Fail {
		t.Errorf("J09: %s, want fail for the banner", rs["J09"].Status)
	}
	if n != 3 {
		t.Errorf("%d server starts, want 3 (none reused)", n)
	}
}
