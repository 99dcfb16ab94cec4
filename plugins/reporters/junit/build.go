package main

import (
	"math"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// The report does not record the machine a run happened on, and the same
// report may be re-rendered elsewhere, so every suite names "localhost",
// the value the schema asks for when the host is unknown. The output is
// then a function of the report alone.
const hostname = "localhost"

// timestampLayout is the schema's timestamp: ISO 8601 without a zone or
// fraction. Times are written in UTC.
const timestampLayout = "2006-01-02T15:04:05"

// runSuiteName names the extra suite that holds run-level errors.
const runSuiteName = "mcptest"

// group is the tests of one suite file and block, at one protocol
// revision when the suite lists target_versions, in report order.
type group struct {
	file, block, version string
	tests                []*report.Test
}

// groupTests splits tests by suite file, block and protocol revision,
// keeping the order in which each group first appears.
func groupTests(tests []report.Test) []*group {
	type key struct{ file, block, version string }
	index := map[key]*group{}
	var out []*group
	for i := range tests {
		t := &tests[i]
		k := key{t.File, t.Block, t.ProtocolVersion}
		g, ok := index[k]
		if !ok {
			g = &group{file: t.File, block: t.Block, version: t.ProtocolVersion}
			index[k] = g
			out = append(out, g)
		}
		g.tests = append(g.tests, t)
	}
	return out
}

// buildDocument turns a run into the JUnit document.
func buildDocument(run *report.Run) *testsuitesXML {
	doc := &testsuitesXML{}
	for _, g := range groupTests(run.Tests) {
		doc.Suites = append(doc.Suites, buildSuite(run, g, len(doc.Suites)))
	}
	if len(run.Errors) > 0 {
		doc.Suites = append(doc.Suites, runErrorSuite(run, len(doc.Suites)))
	}
	return doc
}

// newSuite returns an empty suite with the attributes every suite shares.
func newSuite(run *report.Run, name, pkg string, id int) *suiteXML {
	s := &suiteXML{
		Name:      nonEmpty(name, runSuiteName),
		Package:   nonEmpty(pkg, runSuiteName),
		ID:        id,
		Timestamp: run.StartedAt.UTC().Format(timestampLayout),
		Hostname:  hostname,
		Properties: propertiesXML{Property: []propertyXML{
			{Name: "mcptest.run_id", Value: textsafe.CleanLineTrim(run.RunID)},
			{Name: "mcptest.version", Value: textsafe.CleanLineTrim(run.Tool.Version)},
		}},
	}
	addModelProperties(&s.Properties, run)
	return s
}

// buildSuite renders one group of tests.
func buildSuite(run *report.Run, g *group, id int) *suiteXML {
	file, block := textsafe.CleanLineTrim(g.file), textsafe.CleanLineTrim(g.block)
	name := failtext.JoinWords(file, block)
	version := textsafe.CleanLineTrim(g.version)
	if version != "" {
		// A suite that fans out over revisions gets one testsuite each.
		name += " [" + version + "]"
	}
	s := newSuite(run, name, file, id)
	s.Properties.add("suite.file", file)
	s.Properties.add("suite.block", block)
	s.Properties.add("suite.protocol_version", version)
	addServerProperties(&s.Properties, run.Servers, g.tests)
	addRunEvalProperties(&s.Properties, run, g.file)

	var stdout, stderr strings.Builder
	var total float64
	for _, t := range g.tests {
		s.Cases = append(s.Cases, buildCase(t, file, block))
		addTestProperties(&s.Properties, t)
		addEvalProperties(&s.Properties, run, t)
		total += t.DurationMS
		switch statusOf(t) {
		case report.StatusFailed:
			s.Failures++
		case report.StatusSkipped, report.StatusDeferred:
			s.Skipped++
		case report.StatusWarned:
			stdout.WriteString(warningText(t))
		case report.StatusPassed:
		default:
			s.Errors++
		}
		if out := strings.TrimRight(textsafe.Clean(t.Stderr), "\n"); out != "" {
			stderr.WriteString("=== " + caseName(t) + "\n" + out + "\n")
		}
	}
	s.Tests = len(s.Cases)
	s.Time = seconds(total)
	s.SystemOut = textXML(stdout.String())
	s.SystemErr = textXML(stderr.String())
	return s
}

// runErrorSuite renders run-level errors as errored test cases: the schema
// gives <testsuites> no place for text of its own.
func runErrorSuite(run *report.Run, id int) *suiteXML {
	s := newSuite(run, runSuiteName, runSuiteName, id)
	var stderr strings.Builder
	for _, e := range run.Errors {
		source := nonEmpty(textsafe.CleanLineTrim(e.Source), "run")
		name := failtext.JoinWords(source, e.Name)
		msg := textsafe.CleanLineTrim(e.Message)
		body := msg
		tail := strings.TrimRight(textsafe.Clean(e.StderrTail), "\n")
		if tail != "" {
			body += "\nstderr:\n" + indent(tail, "  ") + "\n"
			stderr.WriteString("=== " + name + "\n" + tail + "\n")
		}
		s.Cases = append(s.Cases, caseXML{
			Name: name, Classname: runSuiteName + "." + source, Time: seconds(0),
			Error: &detailXML{Message: msg, Type: source, Body: body},
		})
	}
	s.Tests, s.Errors = len(s.Cases), len(s.Cases)
	s.Time = seconds(0)
	s.SystemErr = textXML(stderr.String())
	return s
}

// add appends a property when its value is not empty.
func (p *propertiesXML) add(name, value string) {
	if value != "" {
		p.Property = append(p.Property, propertyXML{Name: name, Value: value})
	}
}

// addServerProperties records the protocol version of each server the
// group's tests ran against, in order of first use: the server started
// for the tests' revision when their suite lists target_versions.
func addServerProperties(p *propertiesXML, servers []report.Server, tests []*report.Test) {
	seen := map[string]bool{}
	for _, t := range tests {
		if t.Server == "" || seen[t.Server] {
			continue
		}
		seen[t.Server] = true
		for _, s := range servers {
			// A server of another suite may share the name.
			if s.Name == t.Server && s.TargetVersion == t.ProtocolVersion && (s.Suite == "" || s.Suite == t.File) {
				p.add("server["+textsafe.CleanLineTrim(s.Name)+"].protocol_version", textsafe.CleanLineTrim(s.ProtocolVersion))
			}
		}
	}
}

// addTestProperties records a test's score, threshold, tags, protocol
// version and compliance check, each named "test[<name>].<field>".
func addTestProperties(p *propertiesXML, t *report.Test) {
	prefix := "test[" + caseName(t) + "]."
	if t.Score != nil {
		p.add(prefix+"score", failtext.FormatNumber(*t.Score))
	}
	if t.Threshold != nil {
		p.add(prefix+"threshold", failtext.FormatNumber(*t.Threshold))
	}
	var tags []string
	for _, tag := range t.Tags {
		if tag = textsafe.CleanLineTrim(tag); tag != "" {
			tags = append(tags, tag)
		}
	}
	p.add(prefix+"tags", strings.Join(tags, ","))
	p.add(prefix+"protocol_version", textsafe.CleanLineTrim(t.ProtocolVersion))
	if t.Status == report.StatusWarned {
		p.add(prefix+"warning", warningSummary(t))
	}
	var findings []string
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Check != nil && a.Status == report.StatusFailed {
			findings = append(findings, failtext.JoinWords(a.Check.ID, a.Check.Severity))
		}
	}
	p.add(prefix+"findings", strings.Join(findings, ", "))
	if c := t.Check; c != nil {
		p.add(prefix+"check.id", textsafe.CleanLineTrim(c.ID))
		p.add(prefix+"check.severity", textsafe.CleanLineTrim(c.Severity))
		p.add(prefix+"check.title", textsafe.CleanLineTrim(c.Title))
		p.add(prefix+"check.revision", textsafe.CleanLineTrim(c.Revision))
		p.add(prefix+"check.section", textsafe.CleanLineTrim(c.Section))
	}
}

// seconds converts milliseconds to the schema's decimal seconds, rounded
// to the microsecond; it never uses an exponent.
func seconds(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms < 0 {
		ms = 0
	}
	return failtext.FormatNumber(math.Round(ms*1000) / 1e6)
}

// nonEmpty returns s, or def when s is empty.
func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
