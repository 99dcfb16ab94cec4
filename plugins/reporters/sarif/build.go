package main

import (
	"cmp"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/findings"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Fixed values of the log.
const (
	schemaURI      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	driverName     = "mcptest"
	informationURI = "https://github.com/mcptest/mcptest"
	// srcRoot is the base of relative suite paths: the directory mcptest
	// ran in, which is what the paths in the report are relative to.
	srcRoot = "SRCROOT"
	// fingerprintKey names the result's stable fingerprint.
	fingerprintKey = "mcptestFinding/v1"
	// runErrorPrefix begins the descriptor ID of a run-level error.
	runErrorPrefix = "mcptest/run-error/"
	timeLayout     = "2006-01-02T15:04:05.000Z"
)

// builder assembles the log, keeping rule and notification indexes.
type builder struct {
	rules         []descriptor
	ruleIndex     map[string]int
	notifications []descriptor
	notifIndex    map[string]int
}

// buildLog turns a run into a SARIF log.
func buildLog(run *report.Run) *sarifLog {
	b := &builder{ruleIndex: map[string]int{}, notifIndex: map[string]int{}}
	for i := range run.Tests {
		for _, c := range checksOf(&run.Tests[i]) {
			b.checkRule(c)
		}
	}
	results := []result{}
	for _, f := range findings.Collect(run.Tests) {
		results = append(results, b.result(&f))
	}
	inv := invocation{
		ExecutionSuccessful: len(run.Errors) == 0 && run.ExitCode < 2,
		ExitCode:            run.ExitCode,
		StartTimeUTC:        formatTime(run.StartedAt),
		EndTimeUTC:          formatTime(run.FinishedAt),
	}
	for _, e := range run.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, b.notification(e))
	}
	return &sarifLog{
		Schema:  schemaURI,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool: tool{Driver: driver{
				Name: driverName, FullName: fullName(run), Version: textsafe.CleanLineTrim(run.Tool.Version), InformationURI: informationURI,
				Rules: append([]descriptor{}, b.rules...), Notifications: b.notifications,
			}},
			AutomationDetails: automation(run, os.Getenv),
			Invocations:       []invocation{inv},
			OriginalURIBaseIDs: map[string]artifactLocation{srcRoot: {
				Description: &message{Text: "The directory mcptest ran in; suite paths are relative to it."},
			}},
			Results:    results,
			ColumnKind: "unicodeCodePoints",
			Properties: runProperties(run),
		}},
	}
}

// checksOf lists the compliance checks a test reports: one per assertion
// for an entry running several (a prefix such as "*"), else the test's own.
func checksOf(t *report.Test) []*report.Check {
	var out []*report.Check
	for i := range t.Assertions {
		if c := t.Assertions[i].Check; c != nil && textsafe.CleanLineTrim(c.ID) != "" {
			out = append(out, c)
		}
	}
	if len(out) == 0 && t.Check != nil && textsafe.CleanLineTrim(t.Check.ID) != "" {
		out = append(out, t.Check)
	}
	return out
}

// result renders one finding.
func (b *builder) result(f *findings.Finding) result {
	t := f.Test
	id := f.RuleID()
	var idx int
	if c := f.Check(); c != nil && textsafe.CleanLineTrim(c.ID) != "" {
		idx = b.checkRule(c)
	} else {
		idx = b.genericRule(id)
	}
	level := resultLevel(f)
	text := f.Summary()
	if d := f.Details(); len(d) > 0 {
		text += "\n" + strings.Join(d, "\n")
	}
	loc := location{LogicalLocations: []logicalLocation{{
		Name: cmp.Or(textsafe.CleanLineTrim(t.Name), textsafe.CleanLineTrim(t.ID)), FullyQualifiedName: textsafe.CleanLineTrim(t.ID),
	}}}
	if uri, base := artifactURI(t.File); uri != "" {
		loc.PhysicalLocation = &physicalLocation{ArtifactLocation: artifactLocation{URI: uri, URIBaseID: base}}
		if t.Line > 0 {
			loc.PhysicalLocation.Region = &region{StartLine: t.Line, StartColumn: max(t.Col, 0)}
		}
	}
	return result{
		RuleID: id, RuleIndex: idx, Kind: "fail", Level: level,
		Message:             message{Text: text},
		Locations:           []location{loc},
		PartialFingerprints: map[string]string{fingerprintKey: f.Fingerprint},
		Properties:          resultProperties(f),
	}
}

// resultProperties records the test and assertion a result comes from.
func resultProperties(f *findings.Finding) map[string]any {
	t := f.Test
	p := map[string]any{"testId": textsafe.CleanLineTrim(t.ID), "status": textsafe.CleanLineTrim(string(t.Status))}
	set := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	set("server", textsafe.CleanLineTrim(t.Server))
	set("tool", textsafe.CleanLineTrim(t.Tool))
	set("protocolVersion", textsafe.CleanLineTrim(t.ProtocolVersion))
	if a := f.Assertion; a != nil {
		p["assertionIndex"] = a.Index
		set("target", textsafe.CleanLineTrim(a.Target))
		set("matcher", textsafe.CleanLineTrim(a.Matcher))
	}
	if t.Score != nil {
		p["score"] = *t.Score
	}
	if t.Threshold != nil {
		p["threshold"] = *t.Threshold
	}
	// The grade rides along whole (scores on 0..1, display on the
	// rubric's scale): the assertion's for a judged metric, else the
	// test's.
	if a := f.Assertion; a != nil && a.Eval != nil {
		p["eval"] = evaltext.Clean(a.Eval)
	} else if t.Eval != nil {
		p["eval"] = evaltext.Clean(t.Eval)
	}
	if t.TrialOf != "" {
		p["trial"] = t.Trial
		p["trialOf"] = textsafe.CleanLineTrim(t.TrialOf)
	}
	var tags []string
	for _, tag := range t.Tags {
		if tag = textsafe.CleanLineTrim(tag); tag != "" && !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	if len(tags) > 0 {
		p["tags"] = tags
	}
	return p
}

// notification renders a run-level error.
func (b *builder) notification(e report.RunError) notification {
	source := cmp.Or(textsafe.CleanLineTrim(e.Source), "run")
	id := runErrorPrefix + source
	idx, ok := b.notifIndex[id]
	if !ok {
		idx = len(b.notifications)
		b.notifIndex[id] = idx
		b.notifications = append(b.notifications, notificationDescriptor(id, source))
	}
	text := failtext.JoinWords(source, e.Name) + ": " + cmp.Or(textsafe.CleanLineTrim(e.Message), "no message")
	props := map[string]any{"source": source}
	if n := textsafe.CleanLineTrim(e.Name); n != "" {
		props["name"] = n
	}
	if tail := strings.TrimRight(textsafe.Clean(e.StderrTail), "\n"); tail != "" {
		text += "\nstderr:\n" + tail
		props["stderrTail"] = tail
	}
	return notification{Level: "error", Message: message{Text: text}, Descriptor: &descriptorRef{ID: id, Index: idx}, Properties: props}
}

// runProperties records the run id and summary, and for a merged report
// that lacks shards which ones: its results are not the whole run's.
func runProperties(run *report.Run) map[string]any {
	p := map[string]any{"runId": textsafe.CleanLineTrim(run.RunID), "summary": run.Summary}
	if run.Partial != nil {
		p["partial"] = run.Partial
	}
	if tr := run.Trials; tr != nil {
		p["trials"] = trialsProperty(tr)
	}
	if run.Costs != nil {
		c := *run.Costs
		c.Suites = nil
		for _, sc := range run.Costs.Suites {
			c.Suites = append(c.Suites, report.SuiteCost{Suite: textsafe.CleanLineTrim(sc.Suite), USD: sc.USD})
		}
		p["costs"] = c
	}
	return p
}

// resultLevel grades a finding: what could not be judged is an error; a
// warning (a failed SHOULD requirement, which does not fail the run) is a
// warning and never an error; any other failure of a check weighs as its
// requirement does, with a SHOULD that still failed the run (--strict)
// an error; any other failure is an error.
func resultLevel(f *findings.Finding) string {
	switch {
	case f.Errored():
		return "error"
	case f.Warning():
		return "warning"
	case f.Check() == nil:
		return "error"
	}
	if lvl := severityLevel(f.CheckSeverity()); lvl != "warning" {
		return lvl
	}
	return "error"
}

// fullName names the tool with its version, as code scanning services
// show it.
func fullName(run *report.Run) string {
	if v := textsafe.CleanLineTrim(run.Tool.Version); v != "" {
		return driverName + " " + v
	}
	return driverName
}

// severityLevel maps a check's severity to a SARIF level.
func severityLevel(sev string) string {
	switch sev {
	case "MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT":
		return "error"
	case "SHOULD", "SHOULD NOT", "RECOMMENDED":
		return "warning"
	}
	return "note"
}

// artifactURI turns a suite path into a URI reference: relative paths stay
// relative to SRCROOT, absolute ones become file URIs. It returns "" for
// an empty path.
func artifactURI(file string) (uri, base string) {
	file = textsafe.CleanLineTrim(file)
	if file == "" {
		return "", ""
	}
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) || path.IsAbs(p) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive path
		}
		return (&url.URL{Scheme: "file", Path: p}).String(), ""
	}
	return (&url.URL{Path: path.Clean(p)}).String(), srcRoot
}

// formatTime writes a time in UTC, or "" for the zero time.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

// trialsProperty is the run's trials for its properties: pass@k and
// pass^k overall, the verdict mode, and each test that did not pass every
// trial (the flaky ones flagged).
func trialsProperty(tr *report.Trials) map[string]any {
	var notAll []map[string]any
	for _, tt := range tr.Tests {
		if tt.PassHatK {
			continue
		}
		notAll = append(notAll, map[string]any{"id": textsafe.CleanLineTrim(tt.ID), "name": textsafe.CleanLineTrim(tt.Name),
			"passed": tt.Passed, "trials": tt.Trials, "flaky": tt.Flaky, "passAtK": tt.PassAtK})
	}
	p := map[string]any{"k": tr.K, "verdict": tr.Pass, "passAtK": tr.PassAtK, "passHatK": tr.PassHatK, "flaky": tr.Flaky}
	if len(notAll) > 0 {
		p["notPassedEveryTrial"] = notAll
	}
	return p
}
