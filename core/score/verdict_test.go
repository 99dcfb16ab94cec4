package score

import (
	"math"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

const (
	pass = report.StatusPassed
	fail = report.StatusFailed
	errd = report.StatusErrored
)

func ptr(v float64) *float64 { return &v }

// e is an entry with a weight and a status; its value follows the status.
func e(w float64, st report.Status) Entry {
	return Entry{Weight: w, Status: st, Value: Value(st, nil)}
}

func named(name string, w float64, st report.Status) Entry {
	x := e(w, st)
	x.Name = name
	return x
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSpecWorkedExamples holds the numbers the suite-composition spec
// promises, exactly.
func TestSpecWorkedExamples(t *testing.T) {
	t.Run("weights: 3/4 = 0.75 clears 0.7", func(t *testing.T) {
		r := Verdict(Input{Entries: []Entry{e(3, pass), e(1, fail)}, Threshold: ptr(0.7)})
		if r.Status != pass || r.Score == nil || *r.Score != 0.75 || r.Reason != nil {
			t.Fatalf("got %+v", r)
		}
	})
	t.Run("assert-set: 2/3 clears 0.6, the set passing passes the test", func(t *testing.T) {
		frac, st := Set([]Entry{e(1, pass), e(1, pass), e(1, fail)}, 0.6)
		if st != pass || !near(frac, 2.0/3) {
			t.Fatalf("set = %v %s", frac, st)
		}
		r := Verdict(Input{Entries: []Entry{{Weight: 1, Status: st, Value: frac}}})
		if r.Status != pass || r.Score != nil {
			t.Fatalf("test = %+v", r)
		}
	})
	t.Run("three of four equal weights clears 0.75 inclusively", func(t *testing.T) {
		r := Verdict(Input{Entries: []Entry{e(1, pass), e(1, pass), e(1, fail), e(1, pass)}, Threshold: ptr(0.75)})
		if r.Status != pass || *r.Score != 0.75 {
			t.Fatalf("got %+v", r)
		}
	})
	t.Run("derived metric 0.667 fails its 0.7 gate although the score 0.5 meets the test's 0.5", func(t *testing.T) {
		quality := &config.DerivedMetric{Name: "quality", Threshold: ptr(0.7), Aggregation: WeightedAverage,
			Terms: []*config.MetricTerm{{Ref: "cites_sources", Weight: 2}, {Ref: "well_formed", Weight: 1}}}
		r := Verdict(Input{
			Entries:   []Entry{named("cites_sources", 1, pass), named("well_formed", 1, fail)},
			Threshold: ptr(0.5),
			Metrics:   []*config.DerivedMetric{quality},
		})
		if r.Status != fail || *r.Score != 0.5 || len(r.Metrics) != 1 {
			t.Fatalf("got %+v", r)
		}
		m := r.Metrics[0]
		if !near(m.Value, 2.0/3) || Format(m.Value) != "0.667" || m.Passed == nil || *m.Passed || *m.Threshold != 0.7 {
			t.Fatalf("metric = %+v", m)
		}
		if r.Reason == nil || r.Reason.Kind != "derived_metric" || r.Reason.Message != `derived metric "quality" is 0.667, below its threshold 0.7` {
			t.Fatalf("reason = %+v", r.Reason)
		}
	})
}

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name      string
		entries   []Entry
		threshold *float64
		status    report.Status
		score     *float64
		reason    string
	}{
		{"legacy: all pass", []Entry{e(1, pass), e(5, pass)}, nil, pass, nil, ""},
		{"legacy: one failure fails, weights inert", []Entry{e(100, pass), e(0.1, fail)}, nil, fail, nil, ""},
		{"legacy: nothing to check", nil, nil, pass, nil, ""},
		{"errored beats everything", []Entry{e(1, pass), e(1, errd), e(1, fail)}, ptr(0.1), errd, nil, ""},
		{"errored without threshold", []Entry{e(1, errd)}, nil, errd, nil, ""},
		{"threshold met exactly", []Entry{e(1, pass), e(1, fail)}, ptr(0.5), pass, ptr(0.5), ""},
		{"threshold missed", []Entry{e(1, pass), e(3, fail)}, ptr(0.5), fail, ptr(0.25), "score 0.25 is below the threshold 0.5"},
		{"threshold 0 passes anything judged", []Entry{e(1, fail)}, ptr(0), pass, ptr(0), ""},
		{"threshold 1 needs everything", []Entry{e(1, pass), e(1, fail)}, ptr(1), fail, ptr(0.5), "score 0.5 is below the threshold 1"},
		{"rounding never flips an equal score", []Entry{e(0.1, pass), e(0.2, pass), e(0.7, fail)}, ptr(0.3), pass, ptr(0.1 + 0.2), ""},
		{"no entries with a threshold scores 1", nil, ptr(0.8), pass, ptr(1), ""},
		{"a failed gate fails even above the threshold", []Entry{e(1, pass), {Weight: 1, Status: fail, Gate: true}}, ptr(0.5), fail, ptr(1), ""},
		{"a passed gate does not count in the score", []Entry{e(1, pass), e(1, fail), {Weight: 1, Status: pass, Gate: true}}, ptr(0.5), pass, ptr(0.5), ""},
		{"a skipped gate counts for nothing", []Entry{e(1, pass), {Weight: 1, Status: report.StatusSkipped, Gate: true}}, nil, pass, nil, ""},
		{"a failed gate fails a legacy test", []Entry{e(1, pass), {Weight: 1, Status: fail, Gate: true}}, nil, fail, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Verdict(Input{Entries: tc.entries, Threshold: tc.threshold})
			if r.Status != tc.status {
				t.Errorf("status = %s, want %s", r.Status, tc.status)
			}
			switch {
			case (r.Score == nil) != (tc.score == nil):
				t.Errorf("score = %v, want %v", r.Score, tc.score)
			case r.Score != nil && !near(*r.Score, *tc.score):
				t.Errorf("score = %v, want %v", *r.Score, *tc.score)
			}
			reason := ""
			if r.Reason != nil {
				reason = r.Reason.Message
				if r.Reason.Kind != "threshold" {
					t.Errorf("reason kind = %q", r.Reason.Kind)
				}
			}
			if reason != tc.reason {
				t.Errorf("reason = %q, want %q", reason, tc.reason)
			}
		})
	}
}

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		name      string
		members   []Entry
		threshold float64
		frac      float64
		status    report.Status
	}{
		{"default threshold 1 needs all", []Entry{e(1, pass), e(1, fail)}, 1, 0.5, fail},
		{"all pass at 1", []Entry{e(1, pass), e(1, pass)}, 1, 1, pass},
		{"weighted members", []Entry{e(3, pass), e(1, fail)}, 0.75, 0.75, pass},
		{"below threshold", []Entry{e(1, pass), e(2, fail)}, 0.5, 1.0 / 3, fail},
		{"an errored member errors the set", []Entry{e(1, pass), e(1, errd)}, 0.1, 0.5, errd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frac, st := Set(tc.members, tc.threshold)
			if !near(frac, tc.frac) || st != tc.status {
				t.Errorf("Set = %v %s, want %v %s", frac, st, tc.frac, tc.status)
			}
		})
	}
}

// TestSetCountsAsOneUnit checks that a set contributes its weight when it
// passes and nothing when it fails, whatever its internal fraction.
func TestSetCountsAsOneUnit(t *testing.T) {
	frac, st := Set([]Entry{e(1, pass), e(1, pass), e(1, fail)}, 0.9) // 0.667 < 0.9: fails
	set := Entry{Name: "kw", Weight: 2, Status: st, Value: frac}
	r := Verdict(Input{Entries: []Entry{e(2, pass), set}, Threshold: ptr(0.5)})
	if st != fail || *r.Score != 0.5 || r.Status != pass {
		t.Fatalf("set %s, test %+v", st, r)
	}
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		status report.Status
		graded *float64
		want   float64
	}{
		{pass, nil, 1},
		{fail, nil, 0},
		{errd, nil, 0},
		{pass, ptr(0.8), 0.8},
		{fail, ptr(0.4), 0.4},
		{pass, ptr(1.7), 1},
		{fail, ptr(-2), 0},
		{pass, ptr(math.NaN()), 1},
	} {
		if got := Value(tc.status, tc.graded); got != tc.want {
			t.Errorf("Value(%s, %v) = %v, want %v", tc.status, tc.graded, got, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for v, want := range map[float64]string{2.0 / 3: "0.667", 0.75: "0.75", 1: "1", 0: "0", 0.1 + 0.2: "0.3"} {
		if got := Format(v); got != want {
			t.Errorf("Format(%v) = %q, want %q", v, got, want)
		}
	}
}
