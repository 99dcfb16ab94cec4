package main

import (
	"encoding/json"
	"maps"
	"reflect"
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

// decode validates out against the SARIF schema, checks that no control
// character survived, and decodes it.
func decode(t *testing.T, out string) sarifRun {
	t.Helper()
	validateSARIF(t, out)
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	noControls(t, doc)
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Schema != schemaURI || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("header = %q %q with %d runs", log.Schema, log.Version, len(log.Runs))
	}
	return log.Runs[0]
}

// noControls fails the test if any string in the decoded JSON value holds
// a control character (other than newline and tab) or another character
// textsafe.Clean removes. Escaped forms such as the text \u001b are fine.
func noControls(t *testing.T, v any) {
	t.Helper()
	switch v := v.(type) {
	case string:
		for _, r := range v {
			if r != '\n' && r != '\t' && textsafe.IsUnsafe(r) {
				t.Errorf("output string holds %U: %q", r, v)
			}
		}
	case []any:
		for _, e := range v {
			noControls(t, e)
		}
	case map[string]any:
		for k, e := range v {
			noControls(t, k)
			noControls(t, e)
		}
	}
}

func TestSample(t *testing.T) {
	run := decode(t, render(t, reporttest.Events()))
	d := run.Tool.Driver
	if d.Name != "mcptest" || d.Version != "0.1.0" || d.InformationURI == "" {
		t.Errorf("driver = %+v", d)
	}
	wantRules := map[string]string{
		"J01": "error", "J04": "error", "T06": "warning",
		"mcptest/assertion/exact": "error", "mcptest/assertion/schema": "error", "mcptest/test-errored": "error",
	}
	if len(d.Rules) != len(wantRules) {
		t.Errorf("got %d rules, want %d", len(d.Rules), len(wantRules))
	}
	for _, r := range d.Rules {
		if lvl, ok := wantRules[r.ID]; !ok || r.DefaultConfiguration == nil || r.DefaultConfiguration.Level != lvl {
			t.Errorf("rule %s: unexpected or wrong level %+v", r.ID, r.DefaultConfiguration)
		}
	}
	t06 := d.Rules[2]
	if t06.ID != "T06" || t06.ShortDescription.Text != "Tool names use 1-128 characters of [A-Za-z0-9_.-]" ||
		t06.Properties["revision"] != "2025-11-25" || t06.Properties["section"] != "server/tools" {
		t.Errorf("T06 rule = %+v", t06)
	}

	type want struct {
		rule, level, uri string
		line, col        int
		text             string
	}
	wants := []want{
		{"mcptest/assertion/exact", "error", "suites/smoke.yml", 15, 5, `echo should say goodbye (expected "goodbye", actual "hello")`},
		{"mcptest/assertion/schema", "error", "suites/smoke.yml", 15, 5, "expected boolean, got string"},
		{"mcptest/test-errored", "error", "suites/smoke.yml", 40, 5, "server_exited"},
		{"J04", "error", "suites/compliance.yml", 3, 3, "J04 Unknown method answers -32601 (MUST)"},
		{"T06", "warning", "suites/compliance.yml", 3, 3, `actual "bad name!"`},
	}
	if len(run.Results) != len(wants) {
		t.Fatalf("got %d results, want %d", len(run.Results), len(wants))
	}
	prints := map[string]bool{}
	for i, w := range wants {
		r := run.Results[i]
		pl := r.Locations[0].PhysicalLocation
		if r.RuleID != w.rule || r.Level != w.level || d.Rules[r.RuleIndex].ID != r.RuleID || pl == nil ||
			pl.ArtifactLocation.URI != w.uri || pl.ArtifactLocation.URIBaseID != "SRCROOT" ||
			pl.Region == nil || pl.Region.StartLine != w.line || pl.Region.StartColumn != w.col {
			t.Errorf("result %d = %+v at %+v", i, r, pl)
		}
		if !strings.Contains(r.Message.Text, w.text) {
			t.Errorf("result %d message lacks %q:\n%s", i, w.text, r.Message.Text)
		}
		fp := r.PartialFingerprints[fingerprintKey]
		if len(fp) != 64 || prints[fp] {
			t.Errorf("result %d fingerprint %q is not a unique sha256", i, fp)
		}
		prints[fp] = true
	}
	if !strings.HasPrefix(run.Results[0].Message.Text, `echo fails <b>&"quoted"</b>  naïve ✓: `) {
		t.Errorf("hostile test name not cleaned: %q", run.Results[0].Message.Text)
	}
	for _, r := range run.Results {
		for _, passing := range []string{"echo passes", "scored", "J01", "not reached"} {
			if r.Locations[0].LogicalLocations[0].Name == passing || strings.HasSuffix(r.Properties["testId"].(string), "::"+passing) {
				t.Errorf("passing or skipped test %q has a result", passing)
			}
		}
	}

	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || inv.ExitCode != 2 || inv.StartTimeUTC != "2026-11-25T12:00:00.000Z" || len(inv.ToolExecutionNotifications) != 1 {
		t.Fatalf("invocation = %+v", inv)
	}
	n := inv.ToolExecutionNotifications[0]
	if n.Level != "error" || n.Descriptor.ID != "mcptest/run-error/plugin" || d.Notifications[n.Descriptor.Index].ID != n.Descriptor.ID ||
		!strings.Contains(n.Message.Text, "plugin chaos@0.0.1: plugin crashed") || !strings.Contains(n.Message.Text, "ERROR: chaos: exiting on purpose") {
		t.Errorf("notification = %+v", n)
	}
}

func TestFingerprintsAreStableAcrossRuns(t *testing.T) {
	a := decode(t, render(t, reporttest.Events()))
	later := reporttest.Sample()
	later.RunID, later.StartedAt = "another-run", later.StartedAt.Add(time.Hour)
	b := decode(t, render(t, finished(later)))
	for i := range a.Results {
		if a.Results[i].PartialFingerprints[fingerprintKey] != b.Results[i].PartialFingerprints[fingerprintKey] {
			t.Errorf("result %d fingerprint changed between runs", i)
		}
	}
}

func TestPassingRun(t *testing.T) {
	run := &report.Run{
		RunID: "ok", Tool: report.ToolInfo{Name: "mcptest", Version: "1.2.3"},
		Tests: []report.Test{{ID: "c::J01", Name: "J01", File: "c.yml", Line: 1, Status: report.StatusPassed,
			Check: &report.Check{ID: "J01", Title: "ids match", Severity: "MUST"}}},
	}
	out := render(t, finished(run))
	if !strings.Contains(out, `"results": []`) {
		t.Errorf("an empty result list must be [], not null:\n%s", out)
	}
	got := decode(t, out)
	if len(got.Results) != 0 || len(got.Tool.Driver.Rules) != 1 || got.Tool.Driver.Rules[0].ID != "J01" ||
		!got.Invocations[0].ExecutionSuccessful || got.Invocations[0].StartTimeUTC != "" {
		t.Errorf("passing run = %+v", got)
	}
	empty := decode(t, render(t, finished(&report.Run{})))
	if empty.Tool.Driver.Rules == nil || len(empty.Results) != 0 {
		t.Errorf("empty run = %+v", empty)
	}
}

func TestLocations(t *testing.T) {
	for _, tc := range []struct{ file, uri, base string }{
		{"suites/a.yml", "suites/a.yml", "SRCROOT"},
		{"./x/../my suites/a#1.yml", "my%20suites/a%231.yml", "SRCROOT"},
		{"a:b.yml", "./a:b.yml", "SRCROOT"},
		{"/abs/dir/s.yml", "file:///abs/dir/s.yml", ""},
		{"", "", ""},
	} {
		if uri, base := artifactURI(tc.file); uri != tc.uri || base != tc.base {
			t.Errorf("artifactURI(%q) = %q, %q; want %q, %q", tc.file, uri, base, tc.uri, tc.base)
		}
	}
	run := &report.Run{Tests: []report.Test{
		{ID: "1", Name: "no line", File: "s.yml", Status: report.StatusFailed},
		{ID: "2", Name: "no column", File: "my suites/s.yml", Line: 9, Status: report.StatusFailed},
		{ID: "3", Name: "no file", Status: report.StatusErrored},
	}}
	got := decode(t, render(t, finished(run)))
	if pl := got.Results[0].Locations[0].PhysicalLocation; pl == nil || pl.Region != nil {
		t.Errorf("line 0 must omit the region: %+v", pl)
	}
	if pl := got.Results[1].Locations[0].PhysicalLocation; pl == nil || pl.Region == nil || pl.Region.StartLine != 9 ||
		pl.Region.StartColumn != 0 || pl.ArtifactLocation.URI != "my%20suites/s.yml" {
		t.Errorf("line without column = %+v", pl)
	}
	if loc := got.Results[2].Locations[0]; loc.PhysicalLocation != nil || loc.LogicalLocations[0].Name != "no file" {
		t.Errorf("test without a file = %+v", loc)
	}
}

func TestHostileRun(t *testing.T) {
	bad := "a\x1b]0;title\x07b\x00c\x0bd\ufffee\r\nf\u202eg\xffh"
	run := &report.Run{
		RunID: bad, Tool: report.ToolInfo{Version: bad},
		Tests: []report.Test{{ID: bad, Name: bad, File: bad, Line: 2, Col: 1, Tags: []string{bad, bad}, Stderr: bad,
			Status: report.StatusFailed, Check: &report.Check{ID: bad, Title: bad, Severity: "should"},
			Assertions: []report.Assertion{{Target: bad, Matcher: bad, Message: bad, Status: report.StatusFailed,
				Failure: json.RawMessage(`{"expected":"\u001b[2J","note":"\u0007x"}`)}}}},
		Errors: []report.RunError{{Source: bad, Name: bad, Message: bad, StderrTail: bad}},
	}
	got := decode(t, render(t, finished(run)))
	r := got.Results[0]
	// "should" is not the SHOULD the core grades as a warning
	// (report.Test.IsWarning): the test failed the run, so it is an error.
	if r.RuleID != "abcde fg\ufffdh" || r.Level != "error" || got.Tool.Driver.Rules[0].ID != r.RuleID {
		t.Errorf("result = %+v", r)
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), pluginName)
}

// Every rule carries what code scanning services need, and
// properties.testId is the test's id from the report (the levels of the
// same run: TestLevels).
func TestWarningsAndRuleMetadata(t *testing.T) {
	setEnv(t, nil)
	src := spanstest.WarningRun()
	run := decode(t, render(t, finished(src)))
	for _, r := range run.Results {
		id, _ := r.Properties["testId"].(string)
		found := false
		for _, tt := range src.Tests {
			found = found || tt.ID == id
		}
		if !found {
			t.Errorf("result %s: testId %q is no test of the report", r.RuleID, id)
		}
	}
	d := run.Tool.Driver
	if d.FullName != "mcptest 0.1.0" {
		t.Errorf("driver fullName = %q", d.FullName)
	}
	names := map[string]string{}
	for _, r := range d.Rules {
		names[r.ID] = r.Name
		if r.ShortDescription == nil || r.FullDescription == nil || r.Help == nil || r.Help.Text == "" || r.HelpURI == "" {
			t.Errorf("rule %s lacks a description or help: %+v", r.ID, r)
		}
	}
	if want := map[string]string{"T06": "ComplianceCheckT06", "J04": "ComplianceCheckJ04", "mcptest/assertion/llm-judge": "AssertionFailedLlmJudge"}; !reflect.DeepEqual(names, want) {
		t.Errorf("rule names = %v", names)
	}
	if run.AutomationDetails == nil || run.AutomationDetails.ID != "mcptest/"+src.RunID || run.AutomationDetails.Properties != nil {
		t.Errorf("automationDetails = %+v", run.AutomationDetails)
	}

	// A merged report that lacks shards says which.
	partialRun := spanstest.WarningRun()
	partialRun.Partial = &report.Partial{MissingShards: []int{3}, ShardTotal: 4}
	if p, _ := decode(t, render(t, finished(partialRun))).Properties["partial"].(map[string]any); p == nil || p["shard_total"] != 4.0 {
		t.Errorf("partial run properties: %v", p)
	}
}

// The Azure Pipelines id is used only when the job's variables are all
// there and well formed; anything less keeps the plain id.
func TestAzurePipelineDetection(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d := azurePipeline(get(azureEnv)); d == nil || !strings.HasPrefix(d.ID, azurePrefix+"contoso/") {
		t.Errorf("complete job: %+v", d)
	}
	legacy := maps.Clone(azureEnv)
	legacy["SYSTEM_COLLECTIONURI"] = "https://fabrikam.visualstudio.com/"
	delete(legacy, "SYSTEM_PHASEID")
	legacy["SYSTEM_JOBID"] = azureEnv["SYSTEM_PHASEID"]
	if d := azurePipeline(get(legacy)); d == nil || !strings.HasPrefix(d.ID, azurePrefix+"fabrikam/") {
		t.Errorf("visualstudio.com job with SYSTEM_JOBID: %+v", d)
	}
	for k, bad := range map[string]string{"TF_BUILD": "", "SYSTEM_TEAMPROJECTID": "00000000-0000-0000-0000-000000000000",
		"BUILD_BUILDID": "0", "SYSTEM_COLLECTIONURI": "https://example.com/x", "BUILD_SOURCEBRANCH": " "} {
		env := maps.Clone(azureEnv)
		env[k] = bad
		if d := azurePipeline(get(env)); d != nil {
			t.Errorf("%s=%q: got %+v, want no Azure id", k, bad, d)
		}
	}
}

// An interrupted run is an unsuccessful invocation whose notification
// says the run was interrupted, not that an "interrupt" failed.
func TestInterruptedRun(t *testing.T) {
	setEnv(t, nil)
	run := spanstest.OnlyWarning()
	run.ExitCode = report.ExitInterrupted
	run.Errors = []report.RunError{{Source: report.ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}
	got := decode(t, render(t, finished(run)))
	inv := got.Invocations[0]
	if inv.ExecutionSuccessful || inv.ExitCode != 130 || len(inv.ToolExecutionNotifications) != 1 {
		t.Fatalf("invocation = %+v", inv)
	}
	d := got.Tool.Driver.Notifications[0]
	if d.ShortDescription.Text != "The run was interrupted" || d.Name != "RunErrorInterrupt" || d.Help == nil {
		t.Errorf("notification descriptor = %+v", d)
	}
}

// TestLevels: each finding has the level of its own check. A SHOULD
// warning is a warning, never an error, and a MUST failure beside it stays
// an error; a SHOULD requirement that failed the run (--strict) is an
// error; a run whose only finding is a warning still succeeded; an entry
// running several checks reports each finding under its own check and
// level (J06 an error, P01 beside it a warning), with no rule "*".
func TestLevels(t *testing.T) {
	setEnv(t, nil)
	for _, tc := range []struct {
		name string
		run  *report.Run
		want []string // "rule level", one per result, in order
	}{
		{"warning beside failures", spanstest.WarningRun(), []string{"T06 warning", "J04 error", "mcptest/assertion/llm-judge error"}},
		{"strict SHOULD failure", spanstest.StrictFailure(), []string{"T06 error"}},
		{"only a warning", spanstest.OnlyWarning(), []string{"T06 warning"}},
		{"wildcard entry", spanstest.WildcardRun(), []string{"J06 error", "P01 warning"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := decode(t, render(t, finished(tc.run)))
			var levels []string
			for _, r := range got.Results {
				levels = append(levels, r.RuleID+" "+r.Level)
			}
			if !slices.Equal(levels, tc.want) {
				t.Errorf("results = %q, want %q", levels, tc.want)
			}
			if !got.Invocations[0].ExecutionSuccessful {
				t.Errorf("invocation = %+v, want successful", got.Invocations[0])
			}
			for _, r := range got.Tool.Driver.Rules {
				if r.ID == "*" {
					t.Error("a rule named *")
				}
			}
		})
	}
}
