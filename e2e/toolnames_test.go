package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestUnknownToolNamedAgainstServerEverything: server-everything answers
// an unknown tool with an isError result. A test that expects that answer
// passes untouched; one that misspells a tool and fails says the tool is
// not in the server's tools/list and suggests the listed name.
func TestUnknownToolNamedAgainstServerEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	suite := writeSuite(t, strings.ReplaceAll(`
servers:
  everything:
    command: ["node", "ENTRY", "stdio"]
defaultTest:
  timeout_ms: 20000
tools:
  - name: expects the unknown-tool answer
    server: everything
    tool: no-such-tool
    expect:
      - target: result.isError
        matcher: {exact: true}
  - name: misspelt
    server: everything
    tool: get-summ
    args: {a: 1, b: 2}
    expect:
      - target: result.content[0].text
        matcher: {contains: "The sum of 1 and 2 is 3"}
`, "ENTRY", entry))
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--no-color", "--no-cache", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	run := readRun(t, out)
	got := map[string]report.Test{}
	for _, tr := range run.Tests {
		got[tr.Name] = tr
	}
	if tr := got["expects the unknown-tool answer"]; tr.Status != report.StatusPassed || tr.Error != nil {
		t.Errorf("negative test: %s %+v", tr.Status, tr.Error)
	}
	want := `tool "get-summ" is not in the server's tools/list (did you mean "get-sum"?)`
	if tr := got["misspelt"]; tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "unknown_tool" || tr.Error.Message != want {
		t.Errorf("misspelt: %s %+v", tr.Status, tr.Error)
	}
	mustContain(t, "pretty output", r.stdout, "unknown_tool: "+want)
}
