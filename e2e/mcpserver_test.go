package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMCPServerCompliance: mcptest's own compliance run and lint pass
// against mcptest mcp-server, with and without the write tools.
func TestMCPServerCompliance(t *testing.T) {
	self := filepath.Join(binDir, "mcptest")
	for _, server := range []string{self + " mcp-server", self + " mcp-server --enable-writes"} {
		if r := mcptest(t, "compliance", "run", "--server", server); r.code != 0 {
			t.Errorf("compliance run against %s:\n%s", server, r)
		}
		if r := mcptest(t, "lint", "--server", server); r.code != 0 {
			t.Errorf("lint against %s:\n%s", server, r)
		}
	}
}

// TestMCPServerCatalog: without --enable-writes only the tools that start
// nothing and write nothing are offered; each has an input schema and
// annotations.
func TestMCPServerCatalog(t *testing.T) {
	self := filepath.Join(binDir, "mcptest")
	names := func(extra string) []string {
		r := mcptest(t, "snapshot-catalog", "--server", self+" mcp-server"+extra)
		if r.code != 0 {
			t.Fatalf("snapshot:\n%s", r)
		}
		var c struct {
			Tools []struct {
				Name        string
				InputSchema map[string]any  `json:"inputSchema"`
				Annotations map[string]bool `json:"annotations"`
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range c.Tools {
			if tool.InputSchema["type"] != "object" || len(tool.Annotations) == 0 {
				t.Errorf("tool %s: schema %v annotations %v", tool.Name, tool.InputSchema, tool.Annotations)
			}
			out = append(out, tool.Name)
		}
		slices.Sort(out)
		return out
	}
	if got := strings.Join(names(""), ","); got != "list_tests,read_report,validate_suite" {
		t.Errorf("read-only tools: %s", got)
	}
	if got := strings.Join(names(" --enable-writes"), ","); got != "list_catalog,list_tests,propose_assertions,read_report,run_suite,scaffold_suite,validate_suite" {
		t.Errorf("all tools: %s", got)
	}
}

// TestMCPServerDrivenByASuite: mcptest testing itself. A suite whose
// server is `mcptest mcp-server --enable-writes` validates a demo suite,
// lists its tests, runs one by id and reads a saved report, judging each
// answer with the usual matchers.
func TestMCPServerDrivenByASuite(t *testing.T) {
	dir := t.TempDir()
	demo := writeSuite(t, `servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo works
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {exact: hi}
  - name: echo is wrong
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {exact: bye}
`)
	saved := filepath.Join(dir, "saved.json")
	if r := mcptest(t, "run", demo, "--reporter", "json="+saved); r.code != 1 {
		t.Fatalf("demo run:\n%s", r)
	}
	suite := filepath.Join(dir, "self.yml")
	text := `servers:
  self:
    command: ["` + filepath.Join(binDir, "mcptest") + `", "mcp-server", "--enable-writes"]
tools:
  - name: validate a suite
    server: self
    tool: validate_suite
    args: {path: "` + demo + `"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "exit 0"}
  - name: list its tests
    server: self
    tool: list_tests
    args: {path: "` + demo + `"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "::tools::echo works"}
  - name: run one test by id
    server: self
    tool: run_suite
    args: {path: "` + demo + `", id: "` + demo + `::tools::echo works"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "VERDICT pass 1/1 passed exit=0"}
  - name: read the saved report
    server: self
    tool: read_report
    args: {path: "` + saved + `"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "FAIL ` + demo + `::tools::echo is wrong"}
      - target: result.content[0].text
        matcher: {contains: "repro: mcptest run"}
  - name: scaffold a suite for the demo
    server: self
    tool: scaffold_suite
    args: {server: "` + demoServer() + `", path: "` + filepath.Join(dir, "generated.yml") + `"}
    expect:
      - target: result.isError
        matcher: {exact: false}
  - name: propose assertions for add
    server: self
    tool: propose_assertions
    args: {server: "` + demoServer() + `", tool: add, arguments: {a: 1, b: 2}}
    expect:
      - target: result.content[0].text
        matcher: {contains: "target: result.structuredContent.sum"}
      - target: result.content[0].text
        matcher: {contains: "exact: \"3\""}
  - name: a missing suite is a tool error
    server: self
    tool: validate_suite
    args: {path: "` + filepath.Join(dir, "nope.yml") + `"}
    expect:
      - target: result.isError
        matcher: {exact: true}
`
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := mcptest(t, "run", suite, "--reporter", "agent"); r.code != 0 {
		t.Fatalf("mcptest driving mcptest mcp-server:\n%s", r)
	}
	// The scaffolded suite runs green.
	if r := mcptest(t, "run", filepath.Join(dir, "generated.yml")); r.code != 0 {
		t.Errorf("the scaffolded suite:\n%s", r)
	}
}
