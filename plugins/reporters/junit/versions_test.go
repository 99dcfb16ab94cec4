package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestOneTestsuitePerProtocolRevision(t *testing.T) {
	run := &report.Run{
		RunID: "r", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		Servers: []report.Server{
			{Name: "demo", TargetVersion: "2025-11-25", ProtocolVersion: "2025-11-25"},
			{Name: "demo", TargetVersion: "2026-07-28", ProtocolVersion: "2026-07-28"},
		},
		Tests: []report.Test{
			{ID: "a [2025-11-25]", Name: "a [2025-11-25]", File: "s.yml", Block: "tools", Server: "demo", Status: report.StatusPassed, ProtocolVersion: "2025-11-25"},
			{ID: "a [2026-07-28]", Name: "a [2026-07-28]", File: "s.yml", Block: "tools", Server: "demo", Status: report.StatusFailed, ProtocolVersion: "2026-07-28"},
		},
	}
	out := render(t, finished(run))
	doc := parse(t, out)
	if len(doc.Suites) != 2 {
		t.Fatalf("%d testsuites, want one per revision", len(doc.Suites))
	}
	for i, v := range []string{"2025-11-25", "2026-07-28"} {
		s := doc.Suites[i]
		if s.Name != "s.yml tools ["+v+"]" || s.Tests != 1 || s.prop("suite.protocol_version") != v ||
			s.prop("server[demo].protocol_version") != v {
			t.Errorf("suite %d = %q, %d tests, protocol %q, server %q", i, s.Name, s.Tests, s.prop("suite.protocol_version"), s.prop("server[demo].protocol_version"))
		}
	}
	if doc.Suites[1].Failures != 1 || doc.Suites[0].Failures != 0 {
		t.Error("failures counted in the wrong revision")
	}
	validateXSD(t, out)
}

// TestServerOfEachSuite: two suites each declare a server "demo"; each
// suite's testsuite records what its own server spoke.
func TestServerOfEachSuite(t *testing.T) {
	run := &report.Run{
		RunID: "r",
		Servers: []report.Server{
			{Name: "demo", Suite: "a.yml", ProtocolVersion: "2025-06-18"},
			{Name: "demo", Suite: "b.yml", ProtocolVersion: "2025-11-25"},
		},
		Tests: []report.Test{
			{ID: "a", Name: "a", File: "a.yml", Block: "tools", Server: "demo", Status: report.StatusPassed},
			{ID: "b", Name: "b", File: "b.yml", Block: "tools", Server: "demo", Status: report.StatusPassed},
		},
	}
	doc := parse(t, render(t, finished(run)))
	for i, want := range []string{"2025-06-18", "2025-11-25"} {
		var got []string
		for _, p := range doc.Suites[i].Props {
			if p.Name == "server[demo].protocol_version" {
				got = append(got, p.Value)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("suite %d: server[demo].protocol_version %v, want %s", i, got, want)
		}
	}
}
