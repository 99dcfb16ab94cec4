package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// toolkitRun is the report of toolkit commands: a lint finding (SHOULD,
// warned), an audit crash (MUST, failed) and a passing compliance check,
// as core/toolkit writes them.
func toolkitRun() *report.Run {
	run := &report.Run{SchemaVersion: report.SchemaVersion, RunID: "lint", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		Tests: []report.Test{
			{ID: "lint/tool/echo/tool-description-missing", Name: "tool echo: lint/tool-description-missing", Block: "lint", Server: "server",
				Status: report.StatusWarned, Check: &report.Check{ID: "lint/tool-description-missing", Title: "every tool has a description", Severity: "SHOULD"},
				Error: &report.Error{Kind: "lint", Message: "tool echo has no description"}},
			{ID: "audit::crash", Name: "crash", Block: "audit", Server: "server", Tool: "crash", Status: report.StatusFailed,
				Check: &report.Check{ID: "audit/crashed", Title: "a tool call ended in a JSON-RPC error other than -32602 or broke the transport", Severity: "MUST"},
				Error: &report.Error{Kind: "rpc_error", Message: "crashed: JSON-RPC error -32603: boom"}},
			{ID: "diff::tool-removed", Name: "tool removed", Block: "diff", Server: "server", Status: report.StatusFailed,
				Check: &report.Check{ID: "diff/tool-removed", Title: "a tool was removed", Severity: "MUST"}},
			{ID: "c::J04", Name: "J04", File: "c.yml", Line: 1, Status: report.StatusFailed, Block: "compliance",
				Check: &report.Check{ID: "J04", Title: "Unknown method answers -32601", Severity: "MUST"}},
		}}
	run.Summarize()
	run.ExitCode = 1
	return run
}

// Toolkit findings are named by their own rule ids and names, not as
// compliance checks; compliance checks keep theirs.
func TestToolkitFindingsHaveTheirOwnRules(t *testing.T) {
	got := decode(t, render(t, finished(toolkitRun())))
	names := map[string]string{}
	for _, r := range got.Tool.Driver.Rules {
		names[r.ID] = r.Name
		if strings.HasPrefix(r.ID, "lint/") && !strings.Contains(r.HelpURI, "toolkit.md#lint") ||
			strings.HasPrefix(r.ID, "diff/") && !strings.Contains(r.HelpURI, "catalog.md#comparing-two-catalogs") {
			t.Errorf("rule %s help %q", r.ID, r.HelpURI)
		}
	}
	want := map[string]string{"lint/tool-description-missing": "LintToolDescriptionMissing", "audit/crashed": "AuditCrashed",
		"diff/tool-removed": "DiffToolRemoved", "J04": "ComplianceCheckJ04"}
	for id, name := range want {
		if names[id] != name {
			t.Errorf("rule %s named %q, want %q (all: %v)", id, names[id], name, names)
		}
	}
	levels := map[string]string{}
	for _, r := range got.Results {
		levels[r.RuleID] = r.Level
	}
	if levels["lint/tool-description-missing"] != "warning" || levels["audit/crashed"] != "error" {
		t.Errorf("levels %v", levels)
	}
}

// A failed eval is an error result under mcptest/eval-failed with the
// whole grade in its properties; a deferred eval is no result; the run's
// properties hold its costs and trials.
func TestEvalResults(t *testing.T) {
	log := render(t, finished(reporttest.Evals()))
	validateSARIF(t, log)
	validateSARIF(t, render(t, finished(toolkitRun())))
	got := decode(t, log)
	byTest := map[string]result{}
	for _, r := range got.Results {
		byTest[r.Properties["testId"].(string)] = r
	}
	if len(got.Results) != 4 {
		t.Errorf("%d results, want 4", len(got.Results))
	}
	if _, ok := byTest[reporttest.EvalSuite+"::evals::"+reporttest.EvalDeferred]; ok {
		t.Error("the deferred eval is a result")
	}
	gates := byTest[reporttest.EvalSuite+"::evals::"+reporttest.EvalGatesFailed]
	if gates.RuleID != "mcptest/eval-failed" || gates.Level != "error" || !strings.Contains(gates.Message.Text, "guard tripped") {
		t.Errorf("failed eval: %+v", gates)
	}
	var ev report.Eval
	raw, _ := json.Marshal(gates.Properties["eval"])
	if err := json.Unmarshal(raw, &ev); err != nil || len(ev.Criteria) != 4 || ev.Score != 0.55 || strings.Contains(ev.Response, "\x1b") {
		t.Errorf("eval property %s (%v)", raw, err)
	}
	flaky := byTest[reporttest.EvalSuite+"::evals::"+reporttest.EvalFlaky+" [trial 2/3]"]
	if flaky.Properties["trial"] != float64(2) {
		t.Errorf("trial property: %v", flaky.Properties)
	}
	var doc struct {
		Runs []struct {
			Properties struct {
				Costs  report.Costs   `json:"costs"`
				Trials map[string]any `json:"trials"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(log), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Runs[0].Properties
	if p.Costs.TotalUSD != 0.0093 || len(p.Costs.Suites) != 2 || p.Trials["passHatK"] != float64(0) || p.Trials["flaky"] != float64(1) {
		t.Errorf("run properties: %+v", p)
	}
}
