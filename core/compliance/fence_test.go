package compliance

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestSilenceToldByOrdering: a server that never answers a bad message is
// found out by the ping sent after it, not by waiting out --timeout. The
// timeout here is longer than the check's own deadline, so a check still
// waiting for silence would end on that deadline with another reason.
func TestSilenceToldByOrdering(t *testing.T) {
	cases := []struct{ check, flags string }{
		{"J05", "ignore-garbage"},
		{"J06", "lenient"},
		{"J08", "drop-batch"},
	}
	for _, c := range cases {
		t.Run(c.check+"/"+c.flags, func(t *testing.T) {
			t.Parallel()
			rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=" + c.flags}},
				Options{Only: []string{c.check}, Timeout: 10 * time.Minute, CheckTimeout: time.Minute})
			r := rs[c.check]
			if r.Status != Fail {
				t.Fatalf("got %s, want fail\n%s", r.Status, summary(rs))
			}
			found := false
			for _, f := range r.Findings {
				if f.Status == Fail && strings.Contains(fmt.Sprint(f.Actual), "answered a ping sent after it") {
					found = true
				}
			}
			if !found {
				t.Errorf("no failure says the ping sent afterwards was answered: %+v", r.Findings)
			}
		})
	}
}

// TestFencedLateAnswers: a server that writes its error for a bad message
// only after answering the ping behind it is still heard, in J05, J06 and
// J08, as when each waited out --timeout.
func TestFencedLateAnswers(t *testing.T) {
	rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=late-errors"}},
		Options{Only: []string{"J05", "J06", "J08"}, Timeout: 10 * time.Minute, CheckTimeout: time.Minute})
	for _, id := range []string{"J05", "J06", "J08"} {
		if rs[id].Status != Pass {
			t.Errorf("%s: got %s: %s\n%s", id, rs[id].Status, rs[id].Message, summary(rs))
		}
	}
}

// TestFenceNotMistakenForAnswer: against a correct server the fence's own
// answer is never taken for the answer to the probe, so the checks that
// accept "any response" still see the real one.
func TestFenceNotMistakenForAnswer(t *testing.T) {
	rs := runChecks(t, Target{Command: []string{fakeBin(t)}}, Options{Only: []string{"J05", "J06", "J08"}})
	for _, id := range []string{"J05", "J06", "J08"} {
		if rs[id].Status != Pass {
			t.Errorf("%s: got %s: %s", id, rs[id].Status, rs[id].Message)
		}
	}
}

// TestSlowToolNotApplicable: a safe tool that never answers is cancelled
// after the tool budget and marked not applicable with the reason, while
// the other tools are still judged. The run's timeout is far longer than
// the check's deadline, so waiting the call out would error the check.
func TestSlowToolNotApplicable(t *testing.T) {
	for _, id := range []string{"T05", "U03"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=slow-tool"}},
				Options{Only: []string{id}, Timeout: 10 * time.Minute, CheckTimeout: time.Minute})
			r := rs[id]
			if r.Status != Pass {
				t.Fatalf("got %s (%s), want pass\n%s", r.Status, r.Message, summary(rs))
			}
			var slow, passed int
			for _, f := range r.Findings {
				switch {
				case f.Name == "tool slow" && f.Status == NotApplicable && strings.Contains(f.Note, "not judged"):
					slow++
				case f.Status == Pass:
					passed++
				}
			}
			if slow != 1 || passed == 0 {
				t.Errorf("want the slow tool not applicable and the others judged, got %+v", r.Findings)
			}
			cancelled := false
			for _, fr := range r.Frames {
				if fr.Direction == "send" && strings.Contains(string(fr.Data), "notifications/cancelled") {
					cancelled = true
				}
			}
			if !cancelled {
				t.Errorf("the slow call was not cancelled")
			}
		})
	}
}

// TestJudgeOnlyNotApplicable: a check whose every probe was set aside
// does not apply, with the first reason; it neither passes nor errors.
func TestJudgeOnlyNotApplicable(t *testing.T) {
	c := &Check{ID: "T05", Severity: Must}
	st, msg := judge(c, []Finding{{Name: "tool slow", Status: NotApplicable, Note: "too slow"}})
	if st != NotApplicable || msg != "tool slow: too slow" {
		t.Errorf("got %s %q", st, msg)
	}
	st, _ = judge(c, []Finding{{Name: "tool slow", Status: NotApplicable}, {Name: "tool echo", Status: Fail}})
	if st != Fail {
		t.Errorf("a failure beside a not-applicable finding: got %s", st)
	}
}

// TestHTTPStraysNeedNoWait: over HTTP, Quiet no longer sleeps, and an
// answer to a notification is still caught, because it can only come in
// the POST's own reply, which is read whole.
func TestHTTPStraysNeedNoWait(t *testing.T) {
	url := startServer(t, fakeBin(t), []string{"MCPTEST_FAKE=answer-notifications"}, "--http", "127.0.0.1:0")
	rs := runChecks(t, Target{URL: url}, Options{Only: []string{"J03"}})
	if r := rs["J03"]; r.Status != Fail {
		t.Fatalf("got %s, want fail\n%s", r.Status, summary(rs))
	}
}

// TestFencedVerdicts: telling silence by ordering gives J05 the verdict a
// wait of the full --timeout gave, for every way a server can treat the
// malformed text: answering it wrongly, never answering it, answering it
// just after the ping sent behind it, answering no ping at all (where the
// --timeout fallback still ends the wait), and reading the ping as the rest
// of the text, where the second fence ends the wait at once.
func TestFencedVerdicts(t *testing.T) {
	cases := []struct {
		flags   string
		timeout time.Duration
		want    Status
		// actual is part of the malformed-JSON finding's Actual; "" when
		// it passes.
		actual string
	}{
		{"parse-error-id", 0, Fail, "id 0"},
		{"ignore-garbage", 10 * time.Minute, Fail, "answered a ping sent after it"},
		{"late-errors", 10 * time.Minute, Pass, ""},
		{"stall-on-garbage", time.Second, Fail, "no response in time (waited 1s)"},
		{"continue-garbage", 10 * time.Minute, Fail, "no response: the server"},
	}
	for _, c := range cases {
		t.Run(c.flags, func(t *testing.T) {
			t.Parallel()
			// A check still waiting on the run's --timeout would end on
			// the check deadline instead, with another reason.
			rs := runChecks(t, Target{Command: []string{fakeBin(t)}, Env: []string{"MCPTEST_FAKE=" + c.flags}},
				Options{Only: []string{"J05"}, Timeout: c.timeout, CheckTimeout: time.Minute})
			r := rs["J05"]
			if r.Status != c.want {
				t.Fatalf("got %s (%s), want %s\n%s", r.Status, r.Message, c.want, summary(rs))
			}
			if c.actual == "" {
				return
			}
			for _, f := range r.Findings {
				if f.Name == "malformed JSON" {
					if got := show(f.Actual); f.Status != Fail || !strings.Contains(got, c.actual) {
						t.Errorf("malformed JSON: %s, actual %s; want fail with %q", f.Status, got, c.actual)
					}
					return
				}
			}
			t.Errorf("no malformed-JSON finding: %+v", r.Findings)
		})
	}
}
