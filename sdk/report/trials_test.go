package report

import "testing"

func TestTrialSummary(t *testing.T) {
	tests := []Test{
		{ID: "s::a [trial 1/2]", Name: "a [trial 1/2]", TrialOf: "s::a", Trial: 1, Status: StatusPassed},
		{ID: "s::b [trial 1/2]", Name: "b [trial 1/2]", TrialOf: "s::b", Trial: 1, Status: StatusFailed},
		{ID: "s::a [trial 2/2]", Name: "a [trial 2/2]", TrialOf: "s::a", Trial: 2, Status: StatusWarned},
		{ID: "s::b [trial 2/2]", Name: "b [trial 2/2]", TrialOf: "s::b", Trial: 2, Status: StatusPassed},
	}
	r := &Run{Tests: tests, Trials: &Trials{Pass: TrialsPassAny}}
	r.Summarize()
	s := r.Trials
	if s == nil || s.K != 2 || s.Pass != TrialsPassAny || s.PassAtK != 1 || s.PassHatK != 0.5 || s.Flaky != 1 {
		t.Fatalf("summary = %+v", s)
	}
	if s.Tests[0].Name != "a" || !s.Tests[0].PassHatK || s.Tests[1].Name != "b" || !s.Tests[1].Flaky {
		t.Errorf("tests = %+v", s.Tests)
	}
	if (&Run{Tests: []Test{{ID: "x", Status: StatusPassed}}}).Trials != nil {
		t.Error("a run without trials has no trials summary")
	}
	plain := &Run{Tests: []Test{{ID: "x", Status: StatusPassed}}}
	plain.Summarize()
	if plain.Trials != nil {
		t.Error("a run without trials has no trials summary")
	}
}
