package compliance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/proc"
)

// TestFailedProbeHandsOnUnchanged: a probe whose message cannot change
// the server's state (malformed JSON, invalid requests) hands its server
// on even when the server got it wrong, once the server has answered a
// later request, and the next check judges it as it would a fresh one.
func TestFailedProbeHandsOnUnchanged(t *testing.T) {
	n, rs := starts(t, "ignore-garbage", "J05", "J06")
	if n != 1 {
		t.Errorf("%d server starts, want 1 (J05 failed but left nothing behind)", n)
	}
	if rs["J05"].Status != Fail || rs["J06"].Status != Pass {
		t.Errorf("J05 %s, J06 %s", rs["J05"].Status, rs["J06"].Status)
	}
}

// TestHandedOnKeepsNullIDAnswers: J06's request with a null id goes
// unanswered on a lenient server, yet the answer J08 then gets (a batch
// refused with a null id) still reaches J08: a null id names no request,
// so it is never set aside as the late answer to an abandoned one.
func TestHandedOnKeepsNullIDAnswers(t *testing.T) {
	n, rs := starts(t, "lenient", "J06", "J08")
	if n != 1 {
		t.Errorf("%d server starts, want 1", n)
	}
	if rs["J06"].Status != Fail || rs["J08"].Status != Pass {
		t.Errorf("J06 %s, J08 %s (%s)", rs["J06"].Status, rs["J08"].Status, rs["J08"].Message)
	}
}

// TestLateAnswerStaysWithItsCheck: a server that answers J06's request
// without a method only much later, while U04 is using the session, does
// not make U04 see an answer to its notification: the late answer is
// evidence, never part of the next check's inbox.
func TestLateAnswerStaysWithItsCheck(t *testing.T) {
	n, rs := starts(t, "deferred-invalid", "J06", "U04")
	if n != 1 {
		t.Errorf("%d server starts, want 1", n)
	}
	if rs["J06"].Status != Fail || rs["U04"].Status != Pass {
		t.Errorf("J06 %s, U04 %s (%s)", rs["J06"].Status, rs["U04"].Status, rs["U04"].Message)
	}
}

// TestChangedServerIsClosed: a probe whose message the server took in a
// way that changed its state (a log level it should have refused) closes
// the server; the next probe starts another.
func TestChangedServerIsClosed(t *testing.T) {
	n, rs := starts(t, "accept-any-level", "U02", "U04")
	if n != 2 {
		t.Errorf("%d server starts, want 2 (U02's server had its log level changed)", n)
	}
	if rs["U02"].Status != Warn || rs["U04"].Status != Pass {
		t.Errorf("U02 %s, U04 %s", rs["U02"].Status, rs["U04"].Status)
	}
}

// TestRunStopsEveryServer: servers stop in the background while the run
// goes on, but none outlives it, even one that keeps running after its
// input ends and must be signalled.
func TestRunStopsEveryServer(t *testing.T) {
	log := filepath.Join(t.TempDir(), "starts")
	runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=linger,ignore-garbage,drop-batch", "MCPTEST_FAKE_STARTS=" + log}},
		Options{Only: []string{"J01", "J05", "J08", "L02", "L04", "C02"}})
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(raw))
	if len(pids) < 2 {
		t.Fatalf("%d servers started, want several", len(pids))
	}
	for _, f := range pids {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		// The run has waited for every stop: the process is gone (or a
		// zombie, which proc.Gone counts as gone), with no wait here.
		if !proc.Gone(pid) {
			t.Errorf("server %d still runs after the run returned", pid)
		}
	}
}

// TestU03SkipsToolsSlowInT05: with T05 in the run, U03 does not call a
// tool that was slow in T05 (same tool, same arguments) but records it as
// not judged with that reason, still judges the others, and, having left
// no call unanswered, hands its server on to the next check.
func TestU03SkipsToolsSlowInT05(t *testing.T) {
	n, rs := starts(t, "slow-tool", "T05", "U03", "U04")
	if n != 2 {
		t.Errorf("%d server starts, want 2 (T05's slow call costs its server; U03 hands its server to U04)", n)
	}
	r := rs["U03"]
	if r.Status != Pass {
		t.Fatalf("U03: %s %s", r.Status, r.Message)
	}
	slow, judged := false, false
	for _, f := range r.Findings {
		switch {
		case f.Name == "tool slow" && f.Status == NotApplicable && strings.Contains(f.Note, "when T05 called it"):
			slow = true
		case f.Status == Pass:
			judged = true
		}
	}
	if !slow || !judged {
		t.Errorf("want the slow tool set aside and the others judged, got %+v", r.Findings)
	}
	for _, fr := range r.Frames {
		if fr.Direction == "send" && strings.Contains(string(fr.Data), "tools/call") && strings.Contains(string(fr.Data), `"name":"slow"`) {
			t.Errorf("U03 called the slow tool again: %s", fr.Data)
		}
	}
	if rs["T05"].Status != Pass || rs["U04"].Status != Pass {
		t.Errorf("T05 %s, U04 %s", rs["T05"].Status, rs["U04"].Status)
	}
}

// TestHandOnAfterTheServerSettled: what a server sends in reaction to the
// check handing it on (here a request it makes right after L04 completes
// the handshake) stays in that check's evidence and never reaches the
// check that takes the server over.
func TestHandOnAfterTheServerSettled(t *testing.T) {
	for range 5 {
		_, rs := starts(t, "sampling", "L04", "J04")
		has := func(id string) bool {
			for _, fr := range rs[id].Frames {
				if fr.Direction == "recv" && strings.Contains(string(fr.Data), "sampling/createMessage") {
					return true
				}
			}
			return false
		}
		if !has("L04") || has("J04") {
			t.Fatalf("the request the handshake caused: in L04's evidence %v, in J04's %v (want true, false)", has("L04"), has("J04"))
		}
	}
}
