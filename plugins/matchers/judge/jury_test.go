package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

func juryArgs(quorum float64, jurors ...map[string]any) map[string]any {
	return map[string]any{"rubric": "Names Paris.", "jurors": jurors, "quorum": quorum}
}

func evalOf(t *testing.T, raw json.RawMessage) report.Eval {
	t.Helper()
	var ev report.Eval
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("eval %q: %v", raw, err)
	}
	return ev
}

// A split jury: two of three pass (juror b's own threshold of 0.95 fails
// its 0.8), which meets a 0.66 quorum but not a unanimous one; alpha is
// reported beside the verdict.
func TestJurySplit(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	jurors := []map[string]any{{"model": "a"}, {"model": "b", "threshold": 0.95}, {"model": "c"}}
	for _, quorum := range []float64{0.66, 1} {
		h.push("a", reply(0.9, false, "names it"))
		h.push("b", reply(0.8, false, "names it, strictly not enough"))
		h.push("c", reply(0.75, false, "names it"))
		r := match(t, c, keyJury, "Paris", juryArgs(quorum, jurors...))
		if want := quorum < 1; r.Pass != want || r.Error != "" {
			t.Fatalf("quorum %v: %+v", quorum, r)
		}
		ev := evalOf(t, r.Eval)
		if ev.Jury == nil || ev.Jury.Size != 3 || math.Abs(ev.Jury.PassFraction-2.0/3) > 1e-9 || ev.Jury.Alpha == nil || len(ev.Jurors) != 3 ||
			!ev.Jurors[0].Passed || ev.Jurors[1].Passed || !ev.Jurors[2].Passed {
			t.Fatalf("quorum %v: eval %s", quorum, r.Eval)
		}
		if math.Abs(*r.Score-(0.9+0.8+0.75)/3) > 1e-9 {
			t.Fatalf("score %v, want the mean", *r.Score)
		}
		if quorum == 1 {
			f := failureOf(t, r)
			if _, ok := f["alpha"]; !ok || !strings.Contains(f["note"].(string), "Krippendorff") || !strings.Contains(f["note"].(string), "juror 1 (b) failed with 0.8") {
				t.Fatalf("failure = %s", r.Failure)
			}
		}
	}
}

// A juror whose reply stays unreadable after one repair abstains: it
// counts neither for nor against the quorum.
func TestJurorAbstains(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	h.push("a", reply(0.9, true, "yes"))
	h.push("b", answer{text: "prose"}, answer{text: "more prose"})
	h.push("c", reply(0.2, false, "no"))
	r := match(t, c, keyJury, "Paris", juryArgs(0.5, map[string]any{"model": "a"}, map[string]any{"model": "b"}, map[string]any{"model": "c"}))
	if !r.Pass {
		t.Fatalf("1 of 2 eligible meets 0.5: %+v", r)
	}
	ev := evalOf(t, r.Eval)
	if ev.Jury.Abstained != 1 || !ev.Jurors[1].Abstained || !strings.Contains(ev.Jurors[1].Error, "unreadable") || ev.Jury.PassFraction != 0.5 || ev.Calls != 4 {
		t.Fatalf("eval = %s", r.Eval)
	}
	// Every juror abstaining is no verdict at all.
	h.push("a", answer{text: "x"}, answer{text: "y"})
	r = match(t, c, keyJury, "Paris", juryArgs(0.5, map[string]any{"model": "a"}))
	if r.Pass || !strings.Contains(r.Error, "every juror abstained") {
		t.Fatalf("all abstained: %+v", r)
	}
}

// A juror without a key defers the whole item.
func TestJuryWithoutKeyIsDeferred(t *testing.T) {
	h := newFakeHost()
	h.noKey["b"] = "B_KEY"
	h.push("a", reply(1, true, "yes"))
	c := conn(t, h)
	r := match(t, c, keyJury, "Paris", juryArgs(0.5, map[string]any{"model": "a"}, map[string]any{"model": "b"}))
	if r.Pass || r.Error != "" || !strings.Contains(r.Deferred, "B_KEY") {
		t.Fatalf("no key: %+v", r)
	}
}

// A juror the --max-cost budget refused does not abstain: the jury would
// otherwise pass on the remaining jurors, so the item errors, naming it.
func TestJurorRefusedByBudgetErrors(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	h.push("a", reply(0.9, true, "yes"))
	h.push("b", answer{err: fmt.Errorf("the --max-cost budget would be exceeded: %w", sdk.ErrCostCap)})
	r := match(t, c, keyJury, "Paris", juryArgs(0.5, map[string]any{"model": "a"}, map[string]any{"model": "b"}))
	if r.Pass || r.Deferred != "" || !strings.Contains(r.Error, "juror 1 (b)") || !strings.Contains(r.Error, "--max-cost") {
		t.Fatalf("result = %+v", r)
	}
}

// The jurors' seats go with their requests, so the host's cache asks
// each; a trial's index from the options is in every seat.
func TestJurySeats(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	h.push("a", reply(0.9, true, "yes"), reply(0.8, true, "yes"))
	a, _ := json.Marshal("Paris")
	g, _ := json.Marshal(juryArgs(0.5, map[string]any{"model": "a"}, map[string]any{"model": "a"}))
	res, err := c.Matcher.Match(context.Background(), []plugintest.MatchItem{{ID: 1, Key: keyJury, Actual: a, Argument: g,
		Options: sdk.MatchOptions{Raw: json.RawMessage(`{"trial":3}`)}}})
	if err != nil || len(res) != 1 || !res[0].Pass {
		t.Fatalf("match: %v %+v", err, res)
	}
	seats := map[sdk.Seat]bool{}
	for _, req := range h.chats {
		if req.Seat != nil {
			seats[*req.Seat] = true
		}
	}
	if !seats[sdk.Seat{Juror: 0, Trial: 3}] || !seats[sdk.Seat{Juror: 1, Trial: 3}] {
		t.Fatalf("seats = %v", seats)
	}
}
