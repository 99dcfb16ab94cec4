package report

import "testing"

// TestServersOfTwoSuites: servers of the same name from two suites sort
// by suite and are labelled with it; a name used once stays bare.
func TestServersOfTwoSuites(t *testing.T) {
	servers := []Server{
		{Name: "demo", Suite: "b.yml"}, {Name: "other", Suite: "a.yml"},
		{Name: "demo", Suite: "a.yml", TargetVersion: "2026-07-28"}, {Name: "demo", Suite: "a.yml", TargetVersion: "2025-11-25"},
	}
	SortServers(servers)
	var got []string
	for i := range servers {
		got = append(got, ServerLabel(servers, i)+"@"+servers[i].TargetVersion)
	}
	want := []string{"demo (a.yml)@2025-11-25", "demo (a.yml)@2026-07-28", "demo (b.yml)@", "other@"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

// TestSummaryCountsWarningsApart: a warned test is neither passed nor
// failed, in the summary and per revision, and is the only warning.
func TestSummaryCountsWarningsApart(t *testing.T) {
	run := &Run{Tests: []Test{
		{Status: StatusPassed, ProtocolVersion: "v1"}, {Status: StatusWarned, ProtocolVersion: "v1"},
		{Status: StatusFailed, ProtocolVersion: "v1", Check: &Check{ID: "P01", Severity: "SHOULD"}},
	}}
	run.Summarize()
	if s := run.Summary; s.Total != 3 || s.Passed != 1 || s.Warned != 1 || s.Failed != 1 {
		t.Errorf("summary %+v", s)
	}
	if v := run.VersionSummaries; len(v) != 1 || v[0].Warned != 1 || v[0].Failed != 1 || v[0].Passed != 1 {
		t.Errorf("version summaries %+v", v)
	}
	if !run.Tests[1].IsWarning() || run.Tests[2].IsWarning() {
		t.Error("IsWarning is true exactly for warned tests")
	}
}
