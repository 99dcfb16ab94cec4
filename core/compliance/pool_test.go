package compliance

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/probe"
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
	n, _ = starts(t, "", "L04", "C02")
	if n != 2 {
		t.Errorf("%d server starts, want 2 (L04 needs a server nobody has spoken to; C02 watches discovery's)", n)
	}
}

// TestProbeHandsOnWhenPassed: a check that sends something unusual may
// start on a pooled server, and hands it on when the server handled it as
// the spec says.
func TestProbeHandsOnWhenPassed(t *testing.T) {
	// (Not J08: the ids inside a refused batch are never answered, and a
	// session with a request unanswered is never handed on.)
	n, rs := starts(t, "", "J05", "J06", "U02", "U04", "R03")
	if n != 1 {
		t.Errorf("%d server starts, want 1 (every probe passed and handed the server on)", n)
	}
	for id, r := range rs {
		if r.Status != Pass {
			t.Errorf("%s: %s %s", id, r.Status, r.Message)
		}
	}
}

// TestFreshChecksHandOn: L04 starts a server of its own and C02 watches
// discovery's, and both leave ordinary initialized ones, which later
// checks take: two probes that each close a failing server need no start
// of their own.
func TestFreshChecksHandOn(t *testing.T) {
	n, rs := starts(t, "ignore-garbage,drop-batch", "L04", "C02", "J05", "J08")
	if n != 2 {
		t.Errorf("%d server starts, want 2 (discovery, L04; J05 and J08 take theirs)", n)
	}
	if rs["J05"].Status != Fail || rs["J08"].Status != Fail || rs["L04"].Status != Pass || rs["C02"].Status != Pass {
		t.Errorf("J05 %s, J08 %s, L04 %s, C02 %s", rs["J05"].Status, rs["J08"].Status, rs["L04"].Status, rs["C02"].Status)
	}
}

// TestHandshakeChecksRecallDiscovery: L01, L02 and L03 judge discovery's
// answer to the run's own revision instead of asking a new server the
// same thing, and still fail a server that answers it wrongly.
func TestHandshakeChecksRecallDiscovery(t *testing.T) {
	n, rs := starts(t, "", "L01")
	if n != 1 || rs["L01"].Status != Pass {
		t.Errorf("L01: %d server starts (want 1), %s", n, rs["L01"].Status)
	}
	n, rs = starts(t, "", "L02")
	if want := len(probe.LegacyRevisions); n != want || rs["L02"].Status != Pass {
		t.Errorf("L02: %d server starts (want %d: discovery and one for each other revision), %s", n, want, rs["L02"].Status)
	}
	_, rs = starts(t, "no-server-info", "L01")
	if rs["L01"].Status != Fail {
		t.Errorf("L01 against a server without serverInfo: %s", rs["L01"].Status)
	}
}

// TestStartSlots: no more servers start at once than the pool has slots;
// a check that finds them all taken waits (here its context has ended,
// so it gives up) until one is freed.
func TestStartSlots(t *testing.T) {
	p := &sessionPool{slots: 1}
	e := &Env{}
	_, release, err := p.acquire(context.Background(), e, false)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.acquire(done, e, true); err == nil {
		t.Fatal("a second start was allowed while the only slot was held")
	}
	release()
	release() // a second call frees nothing more
	_, r2, err := p.acquire(done, e, false)
	if err != nil {
		t.Fatalf("the freed slot was not given out: %v", err)
	}
	if _, _, err := p.acquire(done, e, false); err == nil {
		t.Fatal("releasing twice freed two slots")
	}
	r2()
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

// TestBriefChecksWaitForAServer: brief checks running four at once wait
// for the server another brief check is about to hand on rather than
// start one each, so they all share the one discovery started.
func TestBriefChecksWaitForAServer(t *testing.T) {
	log := filepath.Join(t.TempDir(), "starts")
	rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE_STARTS=" + log}},
		Options{Only: []string{"J01", "J02", "J03", "J04", "J07", "J09", "L05", "C01"}, Jobs: 4})
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(raw))); n != 1 {
		t.Errorf("%d server starts, want 1", n)
	}
	for id, r := range rs {
		if r.Status != Pass {
			t.Errorf("%s: %s %s", id, r.Status, r.Message)
		}
	}
}

// TestC02WatchesDiscoverysServer: C02 runs on the server discovery
// started, which has done nothing but the handshake, and still sees a
// sampling request the server sends right after notifications/initialized,
// before C02 began.
func TestC02WatchesDiscoverysServer(t *testing.T) {
	n, rs := starts(t, "sampling", "C02")
	if n != 1 {
		t.Errorf("%d server starts, want 1", n)
	}
	if r := rs["C02"]; r.Status != Fail {
		t.Errorf("C02: %s %s, want fail for the sampling request", r.Status, r.Message)
	}
	n, rs = starts(t, "", "C02", "J04")
	if n != 1 || rs["C02"].Status != Pass || rs["J04"].Status != Pass {
		t.Errorf("%d server starts (want 1), C02 %s, J04 %s", n, rs["C02"].Status, rs["J04"].Status)
	}
}

// TestStartSlotsFirstComeFirstServed: a freed start slot goes to the call
// that has waited longest, so the check that needs several starts (L02)
// is not passed over by every check that asks after it.
func TestStartSlotsFirstComeFirstServed(t *testing.T) {
	p := &sessionPool{slots: 1}
	_, release, err := p.acquire(context.Background(), &Env{}, false)
	if err != nil {
		t.Fatal(err)
	}
	queued := func(n int) {
		// The waiter is a goroutine; this only yields until it has taken
		// its ticket (the test's own deadline bounds it).
		for {
			p.mu.Lock()
			got := len(p.queue)
			p.mu.Unlock()
			if got == n {
				return
			}
			runtime.Gosched()
		}
	}
	got := make(chan string, 2)
	releases := make(chan func(), 2)
	wait := func(name string) {
		_, r, err := p.acquire(context.Background(), &Env{}, false)
		if err != nil {
			t.Error(err)
		}
		got <- name
		releases <- r
	}
	go wait("first")
	queued(1)
	go wait("second")
	queued(2)
	release()
	if name := <-got; name != "first" {
		t.Fatalf("the slot went to the %s waiter", name)
	}
	(<-releases)()
	if name := <-got; name != "second" {
		t.Fatalf("then to the %s waiter", name)
	}
	(<-releases)()
}

// TestStartSlotsByPriority: a freed start slot goes to the waiting start
// of the highest priority (a spare for the handshake checks) before one
// that asked earlier at a lower priority.
func TestStartSlotsByPriority(t *testing.T) {
	p := &sessionPool{slots: 1}
	_, release, err := p.acquire(context.Background(), &Env{}, false)
	if err != nil {
		t.Fatal(err)
	}
	queued := func(n int) {
		for {
			p.mu.Lock()
			got := len(p.queue)
			p.mu.Unlock()
			if got == n {
				return
			}
			runtime.Gosched()
		}
	}
	got := make(chan string, 2)
	releases := make(chan func(), 2)
	wait := func(name string, prio int) {
		_, r, err := p.acquire(context.Background(), &Env{prio: prio}, false)
		if err != nil {
			t.Error(err)
		}
		got <- name
		releases <- r
	}
	go wait("ordinary", prioOther)
	queued(1)
	go wait("spare", prioFresh)
	queued(2)
	release()
	if name := <-got; name != "spare" {
		t.Fatalf("the slot went to the %s start", name)
	}
	(<-releases)()
	if name := <-got; name != "ordinary" {
		t.Fatalf("then to the %s start", name)
	}
	(<-releases)()
}

// TestHandshakeChecksUseSpares: the servers L02-L04 need are started as
// spares before the checks ask, and the checks start none beyond them.
func TestHandshakeChecksUseSpares(t *testing.T) {
	n, rs := starts(t, "", "L02", "L03", "L04")
	if want := 1 + (len(probe.LegacyRevisions) - 1) + 1 + 1; n != want {
		t.Errorf("%d server starts, want %d (discovery and one spare for each handshake)", n, want)
	}
	for id, r := range rs {
		if r.Status != Pass {
			t.Errorf("%s: %s %s", id, r.Status, r.Message)
		}
	}
}
