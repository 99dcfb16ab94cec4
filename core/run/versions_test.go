package run_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

const versionedSuite = `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: first
    server: demo
    tool: echo
    args: {message: "one"}
    capture: {said: "result.content[0].text"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "one"}}
  - name: second
    server: demo
    tool: echo
    args: {message: "again ${capture:said}"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "again one"}}
  - name: asks for input
    server: demo
    tool: confirm
    args: {action: "deploy"}
`

func TestExecuteFansOutOverTargetVersions(t *testing.T) {
	pl, h := setup(t, versionedSuite)
	rep := run.Execute(context.Background(), pl, run.Options{Host: h, ToolVersion: "test"})

	var got []string
	for _, tr := range rep.Tests {
		got = append(got, tr.Name+" = "+string(tr.Status)+" at "+tr.ProtocolVersion)
	}
	want := []string{
		"first [2025-11-25] = passed at 2025-11-25",
		"second [2025-11-25] = passed at 2025-11-25",
		"asks for input [2025-11-25] = failed at 2025-11-25",
		"first [2026-07-28] = passed at 2026-07-28",
		"second [2026-07-28] = passed at 2026-07-28",
		"asks for input [2026-07-28] = errored at 2026-07-28",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tests:\n%s", strings.Join(got, "\n"))
	}
	// At 2025-11-25 mcp-go's server turns the same handler into an
	// elicitation request, which the session has no handler for.
	if e := rep.Tests[2].Error; e == nil || e.Kind != "rpc_error" || !strings.Contains(e.Message, "elicitation") {
		t.Errorf("legacy input test error = %+v", e)
	}
	mrtr := rep.Tests[5]
	if mrtr.Error == nil || mrtr.Error.Kind != "input_required" || !strings.Contains(mrtr.Error.Message, "server asked for input (MRTR)") ||
		!strings.Contains(mrtr.Error.Message, `elicitation/create (key "confirm")`) {
		t.Errorf("input_required test error = %+v", mrtr.Error)
	}
	if len(mrtr.Frames) != 2 || !strings.Contains(string(mrtr.Frames[0].Data), "io.modelcontextprotocol/protocolVersion") {
		t.Errorf("input_required frames = %+v", mrtr.Frames)
	}
	if !strings.HasSuffix(rep.Tests[3].ID, "::tools::first [2026-07-28]") {
		t.Errorf("ID = %q", rep.Tests[3].ID)
	}

	wantBy := []report.VersionSummary{
		{ProtocolVersion: "2025-11-25", Total: 3, Passed: 2, Failed: 1},
		{ProtocolVersion: "2026-07-28", Total: 3, Passed: 2, Errored: 1},
	}
	if !slices.Equal(rep.VersionSummaries, wantBy) || rep.Summary.Total != 6 {
		t.Errorf("summary = %+v", rep.Summary)
	}

	if len(rep.Servers) != 2 {
		t.Fatalf("servers = %+v", rep.Servers)
	}
	legacy, modern := rep.Servers[0], rep.Servers[1]
	if legacy.TargetVersion != "2025-11-25" || legacy.ProtocolVersion != "2025-11-25" || legacy.SupportedVersions != nil ||
		legacy.ServerName != "mcptest-demo" {
		t.Errorf("legacy server = %+v", legacy)
	}
	if modern.TargetVersion != "2026-07-28" || modern.ProtocolVersion != "2026-07-28" ||
		!slices.Contains(modern.SupportedVersions, "2026-07-28") || modern.ServerName != "mcptest-demo" {
		t.Errorf("modern server = %+v", modern)
	}
}

func TestExecuteWithoutTargetVersionsKeepsItsShape(t *testing.T) {
	pl, h := setup(t, suite)
	rep := run.Execute(context.Background(), pl, run.Options{Host: h, ToolVersion: "test"})
	if rep.VersionSummaries != nil || rep.Servers[0].TargetVersion != "" || rep.Servers[0].SupportedVersions != nil {
		t.Errorf("summary %+v, servers %+v", rep.Summary, rep.Servers)
	}
	for _, tr := range rep.Tests {
		if tr.ProtocolVersion != "" || strings.Contains(tr.Name, "[") {
			t.Errorf("test %q at %q", tr.Name, tr.ProtocolVersion)
		}
	}
}

// TestListCacheKeyHasRevision: the pages of a list test at one protocol
// revision never answer the same list at another (a server may list
// differently per revision), so neither run of the list is a cache hit.
func TestListCacheKeyHasRevision(t *testing.T) {
	pl, h := setup(t, `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  demo:
    command: ["DEMO"]
lists:
  - name: tools
    server: demo
    list: tools
`)
	rep := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1})
	if len(rep.Tests) != 2 {
		t.Fatalf("tests = %+v", rep.Tests)
	}
	for _, tr := range rep.Tests {
		if tr.Status != report.StatusPassed || tr.CacheHit {
			t.Errorf("%s: %s, cache hit %v; want a pass from the server itself", tr.Name, tr.Status, tr.CacheHit)
		}
	}
}
