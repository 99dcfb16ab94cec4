package compliance

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestResultsStreamInReportOrder: OnResult sees the checks in registry
// order even though stdio checks finish out of order.
func TestResultsStreamInReportOrder(t *testing.T) {
	var started, got []string
	only := []string{"L04", "J01", "J03", "T01", "R02", "H01"}
	rep, err := Run(context.Background(), Target{Command: []string{fakeBin(t)}}, Options{
		Only: only, Timeout: 2 * time.Second, Jobs: 6,
		OnStart:  func(c *Check) { started = append(started, c.ID) },
		OnResult: func(r *Result) { got = append(got, r.Check.ID) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"J01", "J03", "L04", "T01", "R02", "H01"}
	if !slices.Equal(got, want) {
		t.Errorf("results streamed as %v, want %v", got, want)
	}
	if len(started) != len(want) || len(rep.Results) != len(want) {
		t.Errorf("started %v, results %d", started, len(rep.Results))
	}
	if rep.Server == nil || rep.Server.Name != "fakeserver" || rep.Revision != "2025-11-25" {
		t.Errorf("server info: %+v, revision %s", rep.Server, rep.Revision)
	}
}

func TestRunRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	if _, err := Run(ctx, Target{Command: []string{fakeBin(t)}}, Options{Only: []string{"Q42"}}); err == nil {
		t.Error("an unknown check id was accepted")
	}
	for _, tg := range []Target{{}, {URL: "ftp://x"}, {URL: "http://x", Command: []string{"y"}}} {
		if _, err := Run(ctx, tg, Options{}); err == nil {
			t.Errorf("target %+v accepted", tg)
		}
	}
}

// TestUnreachableServerErrorsEveryCheck: a server that cannot start makes
// every check errored, with the reason, and sets the report's Err.
func TestUnreachableServerErrorsEveryCheck(t *testing.T) {
	rep, err := Run(context.Background(), Target{Command: []string{"/nonexistent/mcp-server"}}, Options{Only: []string{"J01", "J02"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Err == nil || len(rep.Results) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	for _, r := range rep.Results {
		if r.Status != Errored {
			t.Errorf("%s: %s", r.Check.ID, r.Status)
		}
	}
	if Count(rep.Results).ExitCode(false, false) != 2 {
		t.Error("an unreachable server must exit 2")
	}
}

// TestRegistry keeps every check complete and uniquely identified.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.ID] {
			t.Errorf("duplicate %s", c.ID)
		}
		seen[c.ID] = true
		if c.Section == "" || c.Title == "" || (c.Severity != Must && c.Severity != Should) {
			t.Errorf("incomplete %s", c.ID)
		}
	}
	if len(seen) < 40 {
		t.Errorf("only %d checks registered", len(seen))
	}
}
