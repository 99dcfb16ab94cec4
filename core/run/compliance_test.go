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
  - {name: prompt family, server: demo, check: "P*"}
  - {name: JSON-RPC family, server: demo, check: "J*"}
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
		"prompt errors": report.StatusWarned, "HTTP checks on stdio": report.StatusSkipped,
		"prompt family": report.StatusWarned, "JSON-RPC family": report.StatusFailed,
		"handshake": report.StatusPassed, "tool listing": report.StatusPassed,
		"handshake with a wrong expectation": report.StatusFailed,
	})
	got := flowResults(res)
	ids := got["ids are echoed"]
	if ids.Block != "compliance" || ids.Check == nil || ids.Check.ID != "J01" || ids.Check.Severity != "MUST" ||
		len(ids.Assertions) == 0 || ids.Check.Revision != "2025-11-25" || ids.ProtocolVersion != "" || ids.Tags[0] != "protocol" {
		t.Errorf("J01: %s", flowExplain(ids))
	}
	// A broken MUST fails; a broken SHOULD is a warning.
	if j06 := got["invalid requests"]; j06.IsWarning() || j06.Check.Severity != "MUST" || len(j06.Frames) == 0 {
		t.Errorf("J06: %s", flowExplain(j06))
	}
	if p01 := got["prompt errors"]; !p01.IsWarning() || p01.Check.Severity != "SHOULD" {
		t.Errorf("P01: %s", flowExplain(p01))
	}
	// A prefix entry names each finding by its own check and the level of
	// what was broken, never by the pattern; a prefix that matches one
	// check is reported as that check.
	if pf := got["prompt family"]; pf.Check.ID != "P01" || pf.Check.Severity != "SHOULD" || pf.Check.Revision != "2025-11-25" {
		t.Errorf("P*: %s", flowExplain(pf))
	}
	jf := got["JSON-RPC family"]
	severities := map[string]string{}
	for _, a := range jf.Assertions {
		if a.Check == nil {
			t.Fatalf("J*: assertion %d names no check: %s", a.Index, flowExplain(jf))
		}
		if a.Status == report.StatusFailed {
			severities[a.Check.ID] = a.Check.Severity
		}
	}
	if jf.Check.ID != "J*" || jf.Check.Severity != "MUST" || severities["J06"] != "MUST" || severities["J07"] != "MUST" || len(severities) != 2 {
		t.Errorf("J*: failed %v: %s", severities, flowExplain(jf))
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
	if len(res.Tests) != 3 || res.Summary.Failed != 0 || res.Summary.Warned != 1 || res.ExitCode != 0 || res.VersionSummaries != nil {
		t.Errorf("summary %+v exit %d", res.Summary, res.ExitCode)
	}
	// Only the checks reached the server: the report records what it
	// answered them.
	if len(res.Servers) != 1 || res.Servers[0].Name != "demo" || res.Servers[0].ServerName != "mcptest-demo" ||
		res.Servers[0].Transport != "stdio" || res.Servers[0].ProtocolVersion != "2025-11-25" {
		t.Errorf("servers %+v", res.Servers)
	}
}
