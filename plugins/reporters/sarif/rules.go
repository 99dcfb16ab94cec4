package main

import (
	"cmp"
	"strings"
	"unicode"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/findings"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Rules and notification kinds are described in full: code scanning
// services refuse descriptors without a name, a full description or help
// (GitHub Advanced Security and its Azure DevOps flavour; the SARIF
// multitool's Gh and Ado rule kinds check this), and they show the help
// beside each result.

// Pages a rule's helpUri points at.
const (
	helpCompliance = informationURI + "/blob/main/docs/compliance.md"
	helpMatchers   = informationURI + "/blob/main/docs/matchers.md"
	helpReport     = informationURI + "/blob/main/docs/report-sarif.md"
	helpToolkit    = informationURI + "/blob/main/docs/toolkit.md"
	helpCatalog    = informationURI + "/blob/main/docs/catalog.md"
	helpEvals      = informationURI + "/blob/main/docs/agents-and-evals.md"
)

// checkRule declares the rule of a compliance check once; the first test
// naming the check describes it.
func (b *builder) checkRule(c *report.Check) int {
	id := textsafe.CleanLineTrim(c.ID)
	if i, ok := b.ruleIndex[id]; ok {
		return i
	}
	if command, rule, ok := toolkitCheck(id); ok {
		return b.toolkitRule(c, id, command, rule)
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
	full += ": " + title + "."
	help := full + " The server under test did not meet it. Fix the server and run the check again (mcptest compliance, or the suite's compliance entry)."
	switch level := severityLevel(sev); level {
	case "warning":
		help += " A SHOULD requirement is a recommendation: a failure is a warning and does not fail the run, unless mcptest compliance runs with --strict."
	case "error":
		help += " A MUST requirement is mandatory: a failure fails the run."
	}
	props := map[string]any{"tags": []string{"mcp", "compliance"}}
	for k, v := range map[string]string{"severity": sev, "revision": textsafe.CleanLineTrim(c.Revision), "section": textsafe.CleanLineTrim(c.Section)} {
		if v != "" {
			props[k] = v
		}
	}
	return b.addRule(descriptor{
		ID:                   id,
		Name:                 "ComplianceCheck" + pascal(id),
		ShortDescription:     &message{Text: title},
		FullDescription:      &message{Text: full},
		Help:                 &helpText{Text: help},
		HelpURI:              helpCompliance,
		DefaultConfiguration: &configuration{Level: severityLevel(sev)},
		Properties:           props,
	})
}

// toolkitCheck splits the check id of a toolkit finding ("lint/tool-
// description-missing", "audit/crashed") into its command and rule.
// Compliance check ids ("J04", "T06", or a pattern such as "J*") never
// hold a slash.
func toolkitCheck(id string) (command, rule string, ok bool) {
	command, rule, ok = strings.Cut(id, "/")
	return command, rule, ok && command != "" && rule != ""
}

// toolkitHelp is the page that documents a toolkit command's findings:
// diff and drift have theirs in the catalog page, the others in the
// toolkit page, each under its command's heading.
func toolkitHelp(command string) string {
	switch command {
	case "diff":
		return helpCatalog + "#comparing-two-catalogs-mcptest-diff"
	case "drift":
		return helpCatalog + "#watching-a-server-mcptest-drift"
	}
	return helpToolkit + "#" + command
}

// toolkitRule declares the rule of a toolkit finding (audit, fuzz, lint,
// coverage, ...) under its own id and name, so code scanning groups the
// findings by what the toolkit command found rather than as compliance
// checks.
func (b *builder) toolkitRule(c *report.Check, id, command, rule string) int {
	sev := strings.ToUpper(textsafe.CleanLineTrim(c.Severity))
	title := cmp.Or(textsafe.CleanLineTrim(c.Title), id)
	full := "mcptest " + command + " rule " + id
	if sev != "" {
		full += " (" + sev + ")"
	}
	full += ": " + title + "."
	help := full + " Found by `mcptest " + command + "` against the server under test; fix the server (or its tool, resource and prompt definitions) and run the command again."
	if severityLevel(sev) == "warning" {
		help += " A SHOULD rule is a recommendation: a finding is a warning."
	}
	props := map[string]any{"tags": []string{"mcp", command}}
	if sev != "" {
		props["severity"] = sev
	}
	return b.addRule(descriptor{
		ID:                   id,
		Name:                 pascal(command) + pascal(rule),
		ShortDescription:     &message{Text: title},
		FullDescription:      &message{Text: full},
		Help:                 &helpText{Text: help},
		HelpURI:              toolkitHelp(command),
		DefaultConfiguration: &configuration{Level: severityLevel(sev)},
		Properties:           props,
	})
}

// genericRule declares one of mcptest's own rules once.
func (b *builder) genericRule(id string) int {
	if i, ok := b.ruleIndex[id]; ok {
		return i
	}
	var name, short, full, help, uri string
	switch {
	case strings.HasPrefix(id, findings.RuleAssertionPrefix):
		matcher := strings.TrimPrefix(id, findings.RuleAssertionPrefix)
		name = "AssertionFailed" + pascal(matcher)
		short = "An assertion using the " + matcher + " matcher failed"
		full = "A test's expectation checked with the " + matcher + " matcher did not hold for the server's answer."
		help = full + " The result's message gives the target, the expected and the actual values; fix the server or the suite's expectation."
		uri = helpMatchers
	case id == findings.RuleEvalFailed:
		name = "EvalFailed"
		short = "A graded test (an eval) scored below its threshold or failed a gate"
		full = "A model-graded or scored test failed: its rubric score stayed below the threshold, or a required criterion failed, a guard tripped, or cited evidence was not found in the candidate."
		help = full + " The result's message gives the score on the rubric's scale, the threshold and the gate; its properties hold the whole grade (criteria, tree path, jurors, cost). A deferred eval (no model key) is never reported here."
		uri = helpEvals
	case id == findings.RuleTestFailed:
		name = "TestFailed"
		short = "A test failed without a failed assertion, such as a score below its threshold"
		full = "A test failed as a whole although none of its assertions did: its weighted score stayed below its threshold, a gated derived metric missed its target, or its call failed with nothing to check."
		help = full + " The result's message says which."
		uri = helpReport
	default:
		name = "TestErrored"
		short = "A test could not be judged: a server, transport or plugin failed, or the suite is wrong"
		full = "A test, or one of its assertions, could not be judged: the server exited or timed out, the transport failed, a plugin crashed, or the suite asked for something impossible."
		help = full + " This is neither a pass nor a failure; the run exits 2. The result's message names the cause."
		uri = helpReport
	}
	return b.addRule(descriptor{
		ID:                   id,
		Name:                 name,
		ShortDescription:     &message{Text: short},
		FullDescription:      &message{Text: full},
		Help:                 &helpText{Text: help},
		HelpURI:              uri,
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

// notificationDescriptor describes a kind of run-level error.
func notificationDescriptor(id, source string) descriptor {
	short := "A " + source + " failed during the run"
	full := "A " + source + " failed during the run, outside any single test (a plugin that crashed, a server that never started, a hook that failed)."
	help := full + " The notification's message and its stderrTail property say what happened; the tests it affected are reported as errored, and the run exits 2."
	if source == report.ErrorSourceInterrupt {
		short = "The run was interrupted"
		full = "A signal (Ctrl-C, SIGTERM) stopped the run before it finished."
		help = full + " The tests it cut short or never reached are not in the results (they are skipped in the JSON report), so this log does not cover the whole suite; the run exits 130."
	}
	return descriptor{
		ID:               id,
		Name:             "RunError" + pascal(source),
		ShortDescription: &message{Text: short},
		FullDescription:  &message{Text: full},
		Help:             &helpText{Text: help},
		HelpURI:          helpReport,
	}
}

// pascal turns text into a PascalCase identifier: letters and digits
// kept, each run of them capitalised, everything else dropped ("llm-judge"
// becomes "LlmJudge"). An identifier with nothing left is "Unnamed".
func pascal(s string) string {
	var b strings.Builder
	upper := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r > unicode.MaxASCII {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "Unnamed"
	}
	return b.String()
}
