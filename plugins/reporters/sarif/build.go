package main

import (
	"cmp"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

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
				Name: driverName, Version: textsafe.CleanLineTrim(run.Tool.Version), InformationURI: informationURI,
				Rules: append([]descriptor{}, b.rules...), Notifications: b.notifications,
			}},
			Invocations: []invocation{inv},
			OriginalURIBaseIDs: map[string]artifactLocation{srcRoot: {
				Description: &message{Text: "The directory mcptest ran in; suite paths are relative to it."},
			}},
			Results:    results,
			ColumnKind: "unicodeCodePoints",
			Properties: map[string]any{"runId": textsafe.CleanLineTrim(run.RunID), "summary": run.Summary},
		}},
	}
}

// checkRule declares the rule of a compliance check once; the first test
// naming the check describes it.
func (b *builder) checkRule(c *report.Check) int {
	id := textsafe.CleanLineTrim(c.ID)
	if i, ok := b.ruleIndex[id]; ok {
		return i
	}
	sev := strings.ToUpper(textsafe.CleanLineTrim(c.Severity))
	title := cmp.Or(textsafe.CleanLineTrim(c.Title), id)
	full := "MCP specification requirement"
	if sev != "" {
		full = sev + " requirement of the MCP specification"
	}
	if where := failtext.JoinWords(c.Revision, c.Section); where != "" {
		full += " (" + where + ")"
	}
	props := map[string]any{"tags": []string{"mcp", "compliance"}}
	for k, v := range map[string]string{"severity": sev, "revision": textsafe.CleanLineTrim(c.Revision), "section": textsafe.CleanLineTrim(c.Section)} {
		if v != "" {
			props[k] = v
		}
	}
	return b.addRule(descriptor{
		ID:                   id,
		ShortDescription:     &message{Text: title},
		FullDescription:      &message{Text: full + ": " + title + "."},
		DefaultConfiguration: &configuration{Level: severityLevel(sev)},
		Properties:           props,
	})
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

// genericRule declares one of mcptest's own rules once.
func (b *builder) genericRule(id string) int {
	if i, ok := b.ruleIndex[id]; ok {
		return i
	}
	var text string
	switch {
	case strings.HasPrefix(id, findings.RuleAssertionPrefix):
		text = "An assertion using the " + strings.TrimPrefix(id, findings.RuleAssertionPrefix) + " matcher failed"
	case id == findings.RuleTestFailed:
		text = "A test failed without a failed assertion, such as a score below its threshold"
	default:
		text = "A test could not be judged: a server, transport or plugin failed, or the suite is wrong"
	}
	return b.addRule(descriptor{
		ID:                   id,
		ShortDescription:     &message{Text: text},
		DefaultConfiguration: &configuration{Level: "error"},
		Properties:           map[string]any{"tags": []string{"mcptest"}},
	})
}

// addRule appends a rule and returns its index.
func (b *builder) addRule(d descriptor) int {
	b.ruleIndex[d.ID] = len(b.rules)
	b.rules = append(b.rules, d)
	return len(b.rules) - 1
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
	level := "error"
	if !f.Errored() && f.Check() != nil {
		level = severityLevel(f.CheckSeverity())
	}
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
		b.notifications = append(b.notifications, descriptor{
			ID: id, ShortDescription: &message{Text: "A " + source + " failed during the run"},
		})
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
