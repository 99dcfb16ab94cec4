package run_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

const complianceSuite = `
servers:
  demo: {command: ["DEMO"]}
compliance:
  - {name: ids are echoed, server: demo, check: J01, tags: [protocol]}
  - {name: invalid requests, server: demo, check: J06}
  - {name: prompt errors, server: demo, check: P01}
  - {name: HTTP checks on stdio, server: demo, check: "H*"}
  - name: handshake
    server: demo
    check: initialize
    expect:
      - {target: result.serverInfo.name, matcher: {eq: "mcptest-demo"}}
  - name: tool listing
    server: demo
    check: tools/list
    expect:
      - {target: pages, matcher: {eq: 1}}
  - name: handshake with a wrong expectation
    server: demo
    check: initialize
    expect:
      - {target: result.serverInfo.name, matcher: {eq: "someone else"}}
`

func TestComplianceEntries(t *testing.T) {
	pl, h, _ := flowSetup(t, complianceSuite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, ToolVersion: "test"})
	expectStatus(t, res, map[string]report.Status{
		"ids are echoed": report.StatusPassed, "invalid requests": report.StatusFailed,
		"prompt errors": report.StatusFailed, "HTTP checks on stdio": report.StatusSkipped,
		"handshake": report.StatusPassed, "tool listing": report.StatusPassed,
		"handshake with a wrong expectation": report.StatusFailed,
	})
	got := flowResults(res)
	ids := got["ids are echoed"]
	if ids.Block != "compliance" || ids.Check == nil || ids.Check.ID != "J01" || ids.Check.Severity != "MUST" ||
		len(ids.Assertions) == 0 || ids.ProtocolVersion != "2025-11-25" || ids.Tags[0] != "protocol" {
		t.Errorf("J01: %s", flowExplain(ids))
	}
	// A broken MUST fails; a broken SHOULD is a warning.
	if j06 := got["invalid requests"]; j06.IsWarning() || j06.Check.Severity != "MUST" || len(j06.Frames) == 0 {
		t.Errorf("J06: %s", flowExplain(j06))
	}
	if p01 := got["prompt errors"]; !p01.IsWarning() || p01.Check.Severity != "SHOULD" {
		t.Errorf("P01: %s", flowExplain(p01))
	}
	if h := got["HTTP checks on stdio"]; h.Error == nil || h.Error.Kind != "not_applicable" || !strings.Contains(h.Error.Message, "H01: applies to the http transport only") {
		t.Errorf("H*: %s", flowExplain(h))
	}
	hs := got["handshake"]
	if len(hs.Assertions) != 3 || hs.Assertions[0].Status != report.StatusPassed || !strings.HasPrefix(hs.Assertions[1].Target, "L01 ") ||
		!strings.HasPrefix(hs.Assertions[2].Target, "L02 ") {
		t.Errorf("initialize: %s", flowExplain(hs))
	}
	if tl := got["tool listing"]; len(tl.Assertions) != 4 || !strings.HasPrefix(tl.Assertions[3].Target, "T06 ") {
		t.Errorf("tools/list: %s", flowExplain(tl))
	}
	wrong := got["handshake with a wrong expectation"]
	if wrong.Assertions[0].Status != report.StatusFailed || wrong.IsWarning() || !strings.Contains(string(wrong.Response), `"serverInfo"`) {
		t.Errorf("wrong expectation: %s", flowExplain(wrong))
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d", res.ExitCode)
	}
	// The tools/list sequence used a session; the report has its record.
	if len(res.Servers) != 1 || res.Servers[0].ServerName != "mcptest-demo" || res.Servers[0].ProtocolVersion != "2025-11-25" {
		t.Errorf("servers %+v", res.Servers)
	}
}

func TestComplianceWarningsDoNotFailTheRun(t *testing.T) {
	pl, h, _ := flowSetup(t, complianceSuite, plan.Selection{Include: []string{"prompt errors", "ids are echoed", "HTTP checks"}})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	if len(res.Tests) != 3 || res.Summary.Failed != 1 || res.ExitCode != 0 {
		t.Errorf("summary %+v exit %d", res.Summary, res.ExitCode)
	}
	// Only the checks reached the server: the report records what it
	// answered them.
	if len(res.Servers) != 1 || res.Servers[0].Name != "demo" || res.Servers[0].ServerName != "mcptest-demo" ||
		res.Servers[0].Transport != "stdio" || res.Servers[0].ProtocolVersion != "2025-11-25" {
		t.Errorf("servers %+v", res.Servers)
	}
}
