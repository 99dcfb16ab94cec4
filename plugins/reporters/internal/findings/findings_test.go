package findings

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func TestCollectFindingsSample(t *testing.T) {
	fs := Collect(reporttest.Sample().Tests)
	type row struct {
		test, rule string
		kind       Kind
	}
	want := []row{
		{"echo fails " + reporttest.Hostile, "mcptest/assertion/exact", AssertionFailed},
		{"echo fails " + reporttest.Hostile, "mcptest/assertion/schema", AssertionFailed},
		{"server crashed", RuleTestErrored, TestErrored},
		{"J04 unknown method is -32601", "J04", AssertionFailed},
		{"T06 tool names follow the naming rules", "T06", AssertionFailed},
	}
	if len(fs) != len(want) {
		t.Fatalf("got %d findings, want %d", len(fs), len(want))
	}
	for i, w := range want {
		if got := (row{fs[i].Test.Name, fs[i].RuleID(), fs[i].Kind}); got != w {
			t.Errorf("finding %d = %+v, want %+v", i, got, w)
		}
	}
	sum := sha256.Sum256([]byte("suites/compliance.yml::compliance::J04\x000"))
	if fs[3].Fingerprint != hex.EncodeToString(sum[:]) {
		t.Errorf("J04 fingerprint = %s, want sha256 of the test id and assertion index", fs[3].Fingerprint)
	}
	sum = sha256.Sum256([]byte("suites/smoke.yml::tools::server crashed\x00test"))
	if fs[2].Fingerprint != hex.EncodeToString(sum[:]) {
		t.Errorf("errored test fingerprint = %s", fs[2].Fingerprint)
	}
	if got, want := fs[3].Summary(), "J04 Unknown method answers -32601 (MUST): error.code exact failed (expected -32601, actual -32600)"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got := fs[0].Summary(); got != `echo fails <b>&"quoted"</b>  naïve ✓: result.content[0].text exact failed: echo should say goodbye (expected "goodbye", actual "hello")` {
		t.Errorf("summary = %q", got)
	}
	if got := fs[1].Summary(); !strings.HasPrefix(got, `echo fails <b>&"quoted"</b>  naïve ✓: result schema failed (errors [{"instance_path":`) {
		t.Errorf("summary without expected and actual = %q", got)
	}
	if got := fs[2].Summary(); got != `server crashed: could not be judged: server_exited: server "broken" exited (exit status 3)` {
		t.Errorf("summary = %q", got)
	}
	d := strings.Join(fs[0].Details(), "\n")
	for _, want := range []string{"diff: [-goodbye-]{+hello+}", "judged by: text@0.1.0", "server stderr (last lines):\ndemo: warning"} {
		if !strings.Contains(d, want) {
			t.Errorf("details lack %q:\n%s", want, d)
		}
	}
}

func TestCollectFindingsEdges(t *testing.T) {
	score, threshold := 0.4, 0.8
	tests := []report.Test{
		{ID: "a", Name: "under", Status: report.StatusFailed, Score: &score, Threshold: &threshold},
		{ID: "b", Name: "mixed", Status: report.StatusFailed, Assertions: []report.Assertion{
			{Index: 0, Status: report.StatusPassed},
			{Index: 1, Target: "result", Matcher: "cel", Status: report.StatusErrored, Error: "boom\x1b[2J"},
			{Index: 2, Target: "result", Matcher: "", Status: report.StatusFailed, Failure: json.RawMessage(`"not an object"`)},
		}},
		{ID: "c", Name: "odd", Status: "weird"},
		{ID: "c", Name: "odd", Status: "weird"},
		{ID: "d", Name: "v1", ProtocolVersion: "2025-06-18", Status: report.StatusErrored},
		{ID: "d", Name: "v2", ProtocolVersion: "2025-11-25", Status: report.StatusErrored},
		{ID: "e", Name: "skip", Status: report.StatusSkipped},
	}
	fs := Collect(tests)
	rules := []string{RuleTestFailed, RuleTestErrored, "mcptest/assertion/unknown", RuleTestErrored, RuleTestErrored, RuleTestErrored, RuleTestErrored}
	if len(fs) != len(rules) {
		t.Fatalf("got %d findings, want %d", len(fs), len(rules))
	}
	seen := map[string]bool{}
	for i, f := range fs {
		if f.RuleID() != rules[i] {
			t.Errorf("finding %d rule = %s, want %s", i, f.RuleID(), rules[i])
		}
		if seen[f.Fingerprint] || len(f.Fingerprint) != 64 {
			t.Errorf("finding %d fingerprint %q is not unique", i, f.Fingerprint)
		}
		seen[f.Fingerprint] = true
	}
	for i, want := range []string{
		"under: failed with score 0.4 below the threshold 0.8",
		"mixed: result cel could not be judged: boom",
		`mixed: result failed (failure "not an object")`,
		`odd: could not be judged: unknown status "weird"`,
	} {
		if got := fs[i].Summary(); got != want {
			t.Errorf("summary %d = %q, want %q", i, got, want)
		}
	}
	if !fs[1].Errored() || fs[2].Errored() {
		t.Error("Errored() misreports")
	}
	if d := strings.Join(fs[2].Details(), "\n"); d != `failure: "not an object"` {
		t.Errorf("details = %q", d)
	}
	again := Collect(tests)
	for i := range fs {
		if again[i].Fingerprint != fs[i].Fingerprint {
			t.Errorf("finding %d fingerprint is not stable", i)
		}
	}
}

// Only the findings of a test that failed nothing but a SHOULD check are
// warnings; a MUST failure, a plain failure and an errored SHOULD check
// are not.
func TestWarning(t *testing.T) {
	fs := Collect(reporttest.Sample().Tests)
	for _, f := range fs {
		want := f.Test.Check != nil && f.Test.Check.ID == "T06"
		if f.Warning() != want {
			t.Errorf("%s (%s): Warning() = %v, want %v", f.Test.Name, f.RuleID(), f.Warning(), want)
		}
	}
	errored := []report.Test{{ID: "x", Status: report.StatusErrored, Check: &report.Check{ID: "X", Severity: "SHOULD"}}}
	if fs := Collect(errored); len(fs) != 1 || fs[0].Warning() {
		t.Errorf("an errored SHOULD check is a warning: %+v", fs)
	}
}

// TestFindingsOfAWildcardEntry: a compliance entry running several checks
// ("*") reports each finding under the check that raised it, at the level
// of what was broken, never under the pattern or as MUST for a SHOULD.
func TestFindingsOfAWildcardEntry(t *testing.T) {
	tests := []report.Test{{
		ID: "w", Name: "everything", Status: report.StatusFailed,
		Check: &report.Check{ID: "*", Title: "3 compliance checks", Severity: "MUST"},
		Assertions: []report.Assertion{
			{Index: 0, Target: "J01 ids", Matcher: "MUST", Status: report.StatusPassed, Check: &report.Check{ID: "J01", Severity: "MUST"}},
			{Index: 1, Target: "J06 invalid", Matcher: "MUST", Status: report.StatusFailed, Message: "no error",
				Check: &report.Check{ID: "J06", Title: "invalid requests", Severity: "MUST", Revision: "2025-11-25"}},
			{Index: 2, Target: "P01 prompts", Matcher: "SHOULD", Status: report.StatusFailed,
				Check: &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD"}},
		},
	}, {
		ID: "s", Name: "should only", Status: report.StatusWarned,
		Check:      &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD"},
		Assertions: []report.Assertion{{Index: 0, Target: "prompts/get", Matcher: "SHOULD", Status: report.StatusFailed}},
	}}
	fs := Collect(tests)
	type row struct{ rule, sev, summary string }
	want := []row{
		{"J06", "MUST", "J06 invalid requests (MUST): failed: no error"},
		{"P01", "SHOULD", "P01 prompt errors (SHOULD): failed"},
		{"P01", "SHOULD", "P01 prompt errors (SHOULD): prompts/get SHOULD failed"},
	}
	if len(fs) != len(want) {
		t.Fatalf("got %d findings, want %d", len(fs), len(want))
	}
	for i, w := range want {
		if got := (row{fs[i].RuleID(), fs[i].CheckSeverity(), fs[i].Summary()}); got != w {
			t.Errorf("finding %d = %+v, want %+v", i, got, w)
		}
	}
	if d := strings.Join(fs[0].Details(), "\n"); !strings.Contains(d, "specification: 2025-11-25") {
		t.Errorf("details do not locate the finding's own check: %q", d)
	}
}

// On an entry running several checks, a SHOULD finding beside a broken
// MUST is a warning (the MUST fails the run); with only SHOULD findings
// on a failed test (--strict) they are failures.
func TestWarningsOfAWildcardEntry(t *testing.T) {
	should := &report.Check{ID: "P01", Severity: "SHOULD"}
	mixed := report.Test{ID: "m", Status: report.StatusFailed, Check: &report.Check{ID: "*", Severity: "MUST"},
		Assertions: []report.Assertion{
			{Index: 0, Status: report.StatusFailed, Check: &report.Check{ID: "J06", Severity: "MUST"}},
			{Index: 1, Status: report.StatusFailed, Check: should},
		}}
	strict := report.Test{ID: "s", Status: report.StatusFailed, Check: &report.Check{ID: "*", Severity: "SHOULD"},
		Assertions: []report.Assertion{{Index: 0, Status: report.StatusFailed, Check: should}}}
	fs := Collect([]report.Test{mixed, strict})
	got := []bool{fs[0].Warning(), fs[1].Warning(), fs[2].Warning()}
	if want := []bool{false, true, false}; !slices.Equal(got, want) {
		t.Errorf("warnings %v, want %v (J06 MUST, P01 beside it, P01 under --strict)", got, want)
	}
}
