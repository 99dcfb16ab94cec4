package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// render streams events through the plugin over gRPC and returns what it
// wrote to the primary sink; the other sinks must stay empty.
func render(t *testing.T, events []report.Event) string {
	t.Helper()
	return rendertest.Primary(t, newPlugin(), pluginName, events)
}

// finished is the event stream of a run known only by its final report.
var finished = rendertest.Finished

// decode validates out against the schema, checks that every string is
// free of control characters, and decodes it.
func decode(t *testing.T, out string) []issue {
	t.Helper()
	validateCodeQuality(t, out)
	var issues []issue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatal(err)
	}
	for _, is := range issues {
		for _, s := range []string{is.CheckName, is.Description, is.Location.Path} {
			for _, r := range s {
				if textsafe.IsUnsafe(r) {
					t.Errorf("issue text holds %U: %q", r, s)
				}
			}
		}
	}
	return issues
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestSample(t *testing.T) {
	issues := decode(t, render(t, reporttest.Events()))
	type want struct {
		check, severity, path string
		line                  int
		fingerprint, text     string
	}
	hostileID := "suites/smoke.yml::tools::echo fails " + reporttest.Hostile
	wants := []want{
		{"mcptest/assertion/exact", "major", "suites/smoke.yml", 15, sha(hostileID + "\x000"), `echo should say goodbye (expected "goodbye", actual "hello")`},
		{"mcptest/assertion/schema", "major", "suites/smoke.yml", 15, sha(hostileID + "\x001"), "result schema failed"},
		{"mcptest/test-errored", "blocker", "suites/smoke.yml", 40, sha("suites/smoke.yml::tools::server crashed\x00test"), "server_exited"},
		{"J04", "critical", "suites/compliance.yml", 3, sha("suites/compliance.yml::compliance::J04\x000"), "J04 Unknown method answers -32601 (MUST)"},
		{"T06", "minor", "suites/compliance.yml", 3, sha("suites/compliance.yml::compliance::T06\x000"), `actual "bad name!"`},
		{"mcptest/run-error/plugin", "blocker", "suites/smoke.yml", 1, sha("run-error\x00plugin\x00chaos@0.0.1"), "plugin chaos@0.0.1: plugin crashed"},
	}
	if len(issues) != len(wants) {
		t.Fatalf("got %d issues, want %d", len(issues), len(wants))
	}
	for i, w := range wants {
		is := issues[i]
		got := want{is.CheckName, is.Severity, is.Location.Path, is.Location.Lines.Begin, is.Fingerprint, w.text}
		if got != w || !strings.Contains(is.Description, w.text) || is.Type != "issue" || len(is.Categories) != 1 {
			t.Errorf("issue %d = %+v\nwant %+v", i, is, w)
		}
		if strings.Contains(is.Description, "\n") {
			t.Errorf("issue %d description spans lines: %q", i, is.Description)
		}
	}
	if want := `echo fails <b>&"quoted"</b>  naïve ✓: `; !strings.HasPrefix(issues[0].Description, want) {
		t.Errorf("hostile name not cleaned: %q", issues[0].Description)
	}
	if issues[3].Categories[0] != "Compatibility" || issues[0].Categories[0] != "Bug Risk" {
		t.Errorf("categories = %v %v", issues[3].Categories, issues[0].Categories)
	}
}

func TestFingerprintsAreStableAcrossRuns(t *testing.T) {
	a := decode(t, render(t, reporttest.Events()))
	later := reporttest.Sample()
	later.RunID, later.StartedAt = "another", later.StartedAt.Add(24*time.Hour)
	later.Errors[0].Message = "plugin crashed: exit status 7"
	b := decode(t, render(t, finished(later)))
	for i := range a {
		if a[i].Fingerprint != b[i].Fingerprint {
			t.Errorf("issue %d fingerprint changed between runs", i)
		}
	}
}

func TestCleanRunWritesEmptyArray(t *testing.T) {
	run := reporttest.Sample()
	var passing []report.Test
	for _, tc := range run.Tests {
		if tc.Status == report.StatusPassed || tc.Status == report.StatusSkipped {
			passing = append(passing, tc)
		}
	}
	run.Tests, run.Errors = passing, nil
	if out := render(t, finished(run)); out != "[]\n" {
		t.Errorf("got %q, want []", out)
	}
}

func TestEdges(t *testing.T) {
	score, threshold := 0.1, 0.9
	run := &report.Run{
		Suites: []string{"./first.yml"},
		Tests: []report.Test{
			{ID: "a", Name: "no file, no line", Status: report.StatusFailed, Score: &score, Threshold: &threshold},
			{ID: "b", Name: "may", File: "./dir/../x.yml", Line: 4, Status: report.StatusFailed,
				Check: &report.Check{ID: "X1", Title: "optional", Severity: "MAY"}},
			{ID: "c", Name: "errored check", File: "x.yml", Status: report.StatusErrored,
				Check: &report.Check{ID: "X2", Severity: "SHOULD"}, Error: &report.Error{Kind: "timeout", Message: "no answer\x1b[2J"}},
		},
		Errors: []report.RunError{{Source: "", Message: "\x07"}},
	}
	issues := decode(t, render(t, finished(run)))
	got := make([]string, len(issues))
	for i, is := range issues {
		got[i] = is.CheckName + " " + is.Severity + " " + is.Location.Path + ":" + string(rune('0'+is.Location.Lines.Begin))
	}
	want := []string{
		"mcptest/test-failed major first.yml:1",
		"X1 info x.yml:4",
		"X2 blocker x.yml:1",
		"mcptest/run-error/run blocker first.yml:1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := issues[2].Description; d != "X2 errored check (SHOULD): could not be judged: timeout: no answer" {
		t.Errorf("description = %q", d)
	}
	if d := issues[3].Description; d != "run: no message" {
		t.Errorf("run error description = %q", d)
	}
	if p := issuePath(&report.Run{}, ""); p != "mcptest" {
		t.Errorf("path without any suite = %q", p)
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), pluginName)
}

// TestSeverities: each finding is graded by its own check. A SHOULD
// warning never blocks: it is minor, while a MUST failure beside it stays
// critical; a SHOULD requirement that failed the run (--strict) is major;
// an entry running several checks grades each finding by its own check
// (J06 critical, P01 beside it minor).
func TestSeverities(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  *report.Run
		want []string // "check severity", one per issue, in order
	}{
		{"warning beside failures", spanstest.WarningRun(), []string{"T06 minor", "J04 critical", "mcptest/assertion/llm-judge major"}},
		{"strict SHOULD failure", spanstest.StrictFailure(), []string{"T06 major"}},
		{"only a warning", spanstest.OnlyWarning(), []string{"T06 minor"}},
		{"wildcard entry", spanstest.WildcardRun(), []string{"J06 critical", "P01 minor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, is := range decode(t, render(t, finished(tc.run))) {
				got = append(got, is.CheckName+" "+is.Severity)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("issues = %q, want %q", got, tc.want)
			}
		})
	}
}
