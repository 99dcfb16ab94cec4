package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/findings"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Code Quality severities, from least to most severe.
const (
	severityInfo     = "info"
	severityMinor    = "minor"
	severityMajor    = "major"
	severityCritical = "critical"
	severityBlocker  = "blocker"
)

// runErrorPrefix begins the check name of a run-level error.
const runErrorPrefix = "mcptest/run-error/"

// issue is one Code Quality entry. GitLab reads description, check_name,
// fingerprint, severity and location; type and categories make the entry
// a valid Code Climate issue too.
type issue struct {
	Type        string   `json:"type"`
	CheckName   string   `json:"check_name"`
	Description string   `json:"description"`
	Categories  []string `json:"categories"`
	Severity    string   `json:"severity"`
	Fingerprint string   `json:"fingerprint"`
	Location    location `json:"location"`
	// Content holds a graded finding's whole grade, for people.
	Content *content `json:"content,omitempty"`
}

// location is a file, relative to the project root, and a line in it.
type location struct {
	Path  string `json:"path"`
	Lines lines  `json:"lines"`
}

// lines holds the 1-based line the issue begins on.
type lines struct {
	Begin int `json:"begin"`
}

// buildIssues turns a run into Code Quality issues: the findings of its
// tests, then its run-level errors. The list is never nil.
func buildIssues(run *report.Run) []issue {
	out := []issue{}
	for _, f := range findings.Collect(run.Tests) {
		out = append(out, findingIssue(run, &f))
	}
	for _, e := range run.Errors {
		out = append(out, runErrorIssue(run, e))
	}
	return append(out, evalIssues(run)...)
}

// findingIssue renders one finding of a test.
func findingIssue(run *report.Run, f *findings.Finding) issue {
	category := "Bug Risk"
	if f.Check() != nil {
		category = "Compatibility"
	}
	return issue{
		Type:        "issue",
		CheckName:   f.RuleID(),
		Description: f.Summary() + trialNote(run, f.Test),
		Categories:  []string{category},
		Severity:    severity(f),
		Fingerprint: f.Fingerprint,
		Location:    location{Path: issuePath(run, f.Test.File), Lines: lines{Begin: max(f.Test.Line, 1)}},
		Content:     findingContent(f),
	}
}

// runErrorIssue renders a run-level error on the first line of the first
// suite file, so a crashed plugin is seen in the merge request too. Its
// fingerprint covers the error's source and name, not its message, which
// may differ from run to run.
func runErrorIssue(run *report.Run, e report.RunError) issue {
	source := cmp.Or(textsafe.CleanLineTrim(e.Source), "run")
	desc := failtext.JoinWords(source, e.Name) + ": " + cmp.Or(textsafe.CleanLineTrim(e.Message), "no message")
	sum := sha256.Sum256([]byte("run-error\x00" + e.Source + "\x00" + e.Name))
	return issue{
		Type:        "issue",
		CheckName:   runErrorPrefix + source,
		Description: textsafe.Truncate(desc, findings.SummaryRunes),
		Categories:  []string{"Bug Risk"},
		Severity:    severityBlocker,
		Fingerprint: hex.EncodeToString(sum[:]),
		Location:    location{Path: issuePath(run, ""), Lines: lines{Begin: 1}},
	}
}

// severity grades a finding: what could not be judged blocks; a warning
// (a failed SHOULD requirement, which does not fail the run) is minor; a
// failed MUST requirement is critical; a SHOULD requirement that still
// failed the run (compliance --strict) and any other failure are major; a
// check of a weaker severity (MAY) is info.
func severity(f *findings.Finding) string {
	switch {
	case f.Errored():
		return severityBlocker
	case f.Warning():
		return severityMinor
	case f.Check() == nil:
		return severityMajor
	}
	switch f.CheckSeverity() {
	case "MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT":
		return severityCritical
	case "SHOULD", "SHOULD NOT", "RECOMMENDED":
		return severityMajor
	}
	return severityInfo
}

// issuePath returns a suite path as GitLab expects it: slash-separated,
// without "./". An empty path falls back to the run's first suite file,
// then to the first test's file, then to "mcptest".
func issuePath(run *report.Run, file string) string {
	candidates := []string{file}
	candidates = append(candidates, run.Suites...)
	for i := range run.Tests {
		candidates = append(candidates, run.Tests[i].File)
	}
	for _, c := range candidates {
		if c = textsafe.CleanLineTrim(c); c != "" {
			p := path.Clean(filepath.ToSlash(c))
			return strings.TrimPrefix(p, "./")
		}
	}
	return "mcptest"
}
