package plan

import "testing"

func TestTrialsFanOut(t *testing.T) {
	producer := &Test{ID: "s::p", Name: "p"}
	consumer := &Test{ID: "s::c", Name: "c", After: []*Test{producer}}
	p := &Plan{Tests: []*Test{producer, consumer}, Total: 2, Selected: 2}
	p.Trials(3)
	if len(p.Tests) != 6 || p.Total != 6 || p.Selected != 6 {
		t.Fatalf("got %d tests, total %d, selected %d", len(p.Tests), p.Total, p.Selected)
	}
	for i, tt := range p.Tests {
		k := i/2 + 1
		if tt.Trial != k || tt.Trials != 3 || tt.ID != tt.TrialOf+TrialSuffix(k, 3) {
			t.Errorf("test %d = %s trial %d of %s", i, tt.ID, tt.Trial, tt.TrialOf)
		}
		if tt.TrialOf == "s::c" && (len(tt.After) != 1 || tt.After[0].Trial != k) {
			t.Errorf("%s waits for %v; want the producer of its own trial", tt.ID, tt.After)
		}
	}
	one := &Plan{Tests: []*Test{{ID: "x"}}}
	one.Trials(1)
	if one.Tests[0].TrialOf != "" || one.Tests[0].ID != "x" {
		t.Error("--trials 1 changes nothing")
	}
}
