package main

import (
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// maxOpen is the most failed or errored tests shown expanded on load;
// with more, every test starts collapsed.
const maxOpen = 10

// page is everything the template shows. Strings are plain text, cleaned
// of control characters; html/template escapes them where they land.
type page struct {
	PluginVersion         string
	CSP                   string
	CSS                   template.CSS
	JS                    template.JS
	ReportJSON            template.JS
	Verdict, VerdictClass string
	Summary               report.Summary
	Duration, Started     string
	RunID, Tool, Shard    string
	ExitCode              int
	Suites                []string
	Models                []string // model_compatibility (models.go)
	Servers               []report.Server
	Versions              []report.VersionSummary
	Latency               []latencyView
	Errors                []report.RunError
	Statuses              []statusView
	Tags                  []tagView
	Tests                 []testView
	Charts                *chartsView // charts.go
	Costs                 string      // evals.go
	Trials                *trialsView
}

// latencyView is one suite's p95 latency budget against its tests.
type latencyView struct {
	File, P95, Class string
	BudgetMS, Tests  int
	Over             int
	Breached         bool
}

// statusView is one status checkbox of the filter bar.
type statusView struct {
	Status, Label, Class string
	Count                int
}

// tagView is one tag button of the filter bar.
type tagView struct {
	Name  string
	Count int
}

// testView is one test of the list.
type testView struct {
	Index                         int
	Status, Label, Class          string
	Name, ID, Location, Block     string
	Server, Tool, ProtocolVersion string
	Tags                          []string
	TagsJSON, Search              string
	Duration, Score, Threshold    string
	Check                         *checkView
	Open                          bool
	Error, Response, Stderr       string
	Assertions                    []assertionView
	Frames                        []frameView
	Agent                         *agentView // conversation.go
	Eval                          *evalView  // evals.go
}

// checkView describes a compliance check.
type checkView struct {
	ID, Severity, Title, Where string
}

// assertionView is one assertion of a test.
type assertionView struct {
	Label, Class                            string
	Target, Matcher, Message, Plugin, Score string
	Error                                   string
	Fields                                  []fieldView
	Eval                                    *evalView
}

// frameView is one captured JSON-RPC message.
type frameView struct {
	Direction, Class, Arrow, At, Body string
	Truncated                         bool
}

// statusNames are how known statuses are labelled, in filter order.
var statusNames = []struct {
	status report.Status
	label  string
}{
	{report.StatusPassed, "passed"}, {report.StatusFailed, "failed"}, {report.StatusWarned, "warned"},
	{report.StatusErrored, "errored"}, {report.StatusSkipped, "skipped"}, {report.StatusDeferred, "deferred"},
}

// statusClass is the CSS class of a status; unknown statuses share one.
func statusClass(st report.Status) string {
	for _, s := range statusNames {
		if s.status == st {
			return "st-" + s.label
		}
	}
	return "st-unknown"
}

// newPage builds the page for run. reportJSON is the run encoded with
// HTML escaping, ready to sit inside a script element.
func newPage(run *report.Run, reportJSON []byte) *page {
	p := &page{
		PluginVersion: pluginVersion, CSP: contentPolicy,
		CSS: template.CSS(pageCSS), JS: template.JS(pageJS), ReportJSON: template.JS(reportJSON),
		Summary: run.Summary, ExitCode: run.ExitCode,
		RunID: textsafe.Clean(run.RunID), Duration: formatMS(runMS(run)),
	}
	p.Verdict, p.VerdictClass = verdict(run)
	if !run.StartedAt.IsZero() {
		p.Started = run.StartedAt.UTC().Format(time.RFC3339)
	}
	if run.Tool.Name != "" {
		p.Tool = textsafe.Clean(strings.TrimSpace(run.Tool.Name + " " + run.Tool.Version))
	}
	if run.Shard != nil {
		p.Shard = fmt.Sprintf("%d/%d", run.Shard.Index, run.Shard.Total)
	}
	for _, s := range run.Suites {
		p.Suites = append(p.Suites, textsafe.Clean(s))
	}
	p.Models = modelsView(run)
	p.Charts = newCharts(run)
	p.Costs = evaltext.Costs(run.Costs)
	p.Trials = newTrialsView(run.Trials)
	for _, s := range run.Servers {
		p.Servers = append(p.Servers, report.Server{Name: textsafe.Clean(s.Name), Suite: textsafe.Clean(s.Suite), Transport: textsafe.Clean(s.Transport),
			TargetVersion: textsafe.Clean(s.TargetVersion), ProtocolVersion: textsafe.Clean(s.ProtocolVersion),
			ServerName: textsafe.Clean(s.ServerName), ServerVersion: textsafe.Clean(s.ServerVersion), Error: textsafe.Clean(s.Error)})
	}
	for _, v := range run.VersionSummaries {
		v.ProtocolVersion = textsafe.Clean(v.ProtocolVersion)
		p.Versions = append(p.Versions, v)
	}
	for _, l := range run.Latency {
		class := "st-passed"
		if l.Breached {
			class = "st-errored"
		}
		p.Latency = append(p.Latency, latencyView{File: textsafe.Clean(l.File), P95: formatMS(l.P95MS), Class: class,
			BudgetMS: l.BudgetMS, Tests: l.Tests, Over: l.Over, Breached: l.Breached})
	}
	for _, e := range run.Errors {
		p.Errors = append(p.Errors, report.RunError{Source: textsafe.Clean(e.Source), Name: textsafe.Clean(e.Name), Message: textsafe.Clean(e.Message), StderrTail: textsafe.Clean(e.StderrTail)})
	}
	counts := map[report.Status]int{}
	tags := map[string]int{}
	notPassing := 0
	for i := range run.Tests {
		t := &run.Tests[i]
		counts[t.Status]++
		for _, tag := range uniq(t.Tags) {
			tags[textsafe.Clean(tag)]++
		}
		if needsLook(t.Status) {
			notPassing++
		}
	}
	for _, s := range statusNames {
		p.Statuses = append(p.Statuses, statusView{Status: string(s.status), Label: s.label, Class: statusClass(s.status), Count: counts[s.status]})
		delete(counts, s.status)
	}
	var unknown []string
	for st := range counts {
		unknown = append(unknown, string(st))
	}
	sort.Strings(unknown)
	for _, st := range unknown {
		p.Statuses = append(p.Statuses, statusView{Status: st, Label: textsafe.Clean(st), Class: "st-unknown", Count: counts[report.Status(st)]})
	}
	for name, n := range tags {
		p.Tags = append(p.Tags, tagView{Name: name, Count: n})
	}
	sort.Slice(p.Tags, func(i, j int) bool { return p.Tags[i].Name < p.Tags[j].Name })
	for i := range run.Tests {
		p.Tests = append(p.Tests, newTestView(i+1, &run.Tests[i], notPassing <= maxOpen))
	}
	return p
}

// verdict is the run's outcome and its CSS class. Errored tests and
// run-level errors outrank failures, as they do for the exit code;
// warnings (SHOULD requirements broken) do not fail the run. A run a
// signal stopped says interrupted (exit 130), not errored: nothing broke.
func verdict(run *report.Run) (string, string) {
	s := run.Summary
	switch {
	case run.Interrupted():
		return "interrupted", "st-errored"
	case s.Errored > 0 || len(run.Errors) > 0 || run.ExitCode >= 2:
		return "errored", "st-errored"
	case s.Failed > 0 || run.ExitCode == 1:
		return "failed", "st-failed"
	case s.Total == 0:
		return "no tests", "st-skipped"
	case s.Warned > 0:
		return "passed with warnings", "st-warned"
	case s.Deferred > 0:
		return fmt.Sprintf("passed, %d deferred (no model key)", s.Deferred), "st-passed"
	}
	return "passed", "st-passed"
}

// needsLook reports the statuses whose tests are shown expanded: those
// that failed, errored or warned.
func needsLook(st report.Status) bool {
	return st == report.StatusFailed || st == report.StatusErrored || st == report.StatusWarned
}

// newTestView builds the view of one test; index numbers it from 1.
// openFailures expands failed and errored tests.
func newTestView(index int, t *report.Test, openFailures bool) testView {
	v := testView{
		Index: index, Status: textsafe.Clean(string(t.Status)), Class: statusClass(t.Status),
		Name: textsafe.Clean(t.Name), ID: textsafe.Clean(t.ID), Block: textsafe.Clean(t.Block), Server: textsafe.Clean(t.Server), Tool: textsafe.Clean(t.Tool),
		ProtocolVersion: textsafe.Clean(t.ProtocolVersion), Stderr: textsafe.Clean(strings.TrimRight(t.Stderr, "\n")),
		Open: openFailures && needsLook(t.Status),
	}
	v.Label = strings.ToUpper(v.Status)
	v.Location = textsafe.Clean(t.File)
	if t.Line > 0 {
		v.Location += ":" + strconv.Itoa(t.Line)
	}
	for _, tag := range uniq(t.Tags) {
		v.Tags = append(v.Tags, textsafe.Clean(tag))
	}
	tagsJSON, _ := json.Marshal(append([]string{}, v.Tags...))
	v.TagsJSON = string(tagsJSON)
	v.Search = strings.ToLower(strings.Join([]string{v.Name, v.ID, v.Location, v.Server, v.Tool}, " "))
	if (t.Status != report.StatusSkipped && t.Status != report.StatusDeferred) || t.DurationMS > 0 {
		v.Duration = formatMS(t.DurationMS)
	}
	if t.Score != nil {
		v.Score = formatFloat(*t.Score)
	}
	if t.Threshold != nil {
		v.Threshold = formatFloat(*t.Threshold)
	}
	if c := t.Check; c != nil {
		v.Check = &checkView{ID: textsafe.Clean(c.ID), Severity: textsafe.Clean(c.Severity), Title: textsafe.Clean(c.Title), Where: textsafe.Clean(strings.TrimSpace(c.Revision + " " + c.Section))}
	}
	if e := t.Error; e != nil {
		v.Error = textsafe.Clean(e.Message)
		if e.Kind != "" {
			v.Error = textsafe.Clean(e.Kind) + ": " + v.Error
		}
	}
	if len(t.Response) > 0 {
		v.Response = prettyJSON(t.Response)
	}
	for i := range t.Assertions {
		v.Assertions = append(v.Assertions, newAssertionView(&t.Assertions[i]))
	}
	if t.Agent != nil {
		v.Agent = newAgentView(t.Agent)
	}
	if v.Eval = newEvalView(t.Eval); v.Eval != nil && v.Score == "" {
		v.Score, v.Threshold = v.Eval.Score, v.Eval.Threshold
	}
	for _, f := range t.Frames {
		fv := frameView{Direction: textsafe.Clean(f.Direction), Class: "other", Arrow: "•", At: formatMS(f.AtMS), Body: frameBody(f.Data, f.Truncated), Truncated: f.Truncated}
		switch f.Direction {
		case "send":
			fv.Class, fv.Arrow = "send", "→"
		case "recv":
			fv.Class, fv.Arrow = "recv", "←"
		}
		v.Frames = append(v.Frames, fv)
	}
	return v
}

// newAssertionView builds the view of one assertion.
func newAssertionView(a *report.Assertion) assertionView {
	v := assertionView{
		Class: statusClass(a.Status), Target: textsafe.Clean(a.Target), Matcher: textsafe.Clean(a.Matcher),
		Message: textsafe.Clean(a.Message), Plugin: textsafe.Clean(a.Plugin), Error: textsafe.Clean(a.Error),
	}
	v.Label = textsafe.Clean(string(a.Status))
	if a.Score != nil {
		v.Score = formatFloat(*a.Score)
	}
	v.Eval = newEvalView(a.Eval)
	if a.Status == report.StatusFailed || len(a.Failure) > 0 {
		v.Fields = failureFields(a.Failure, nil)
	}
	return v
}

// uniq returns tags without repeats, in their first order.
func uniq(tags []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tags {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// runMS is the run's wall time in milliseconds.
func runMS(run *report.Run) float64 {
	if run.DurationMS > 0 {
		return run.DurationMS
	}
	return run.Summary.DurationMS
}

// formatMS renders a duration in milliseconds with precision that suits
// its size.
func formatMS(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.2f s", ms/1000)
	case ms < 1:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 10:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}
