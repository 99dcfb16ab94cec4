package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corereport "github.com/mcptest/mcptest/core/report"
)

// TestModelCompatibilityReachesTheReports: a suite's model_compatibility
// is in the JSON report (valid against its schema, kept by a re-render)
// and in the html, markdown and junit outputs of the real reporters.
func TestModelCompatibilityReachesTheReports(t *testing.T) {
	suite := writeSuite(t, `
model_compatibility: ["claude-opus-4-7", "gpt-4o"]
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {exact: hi}
`)
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	r := mcptest(t, "run", "--reporter", "json="+out("run.json"), "--reporter", "html="+out("run.html"),
		"--reporter", "markdown="+out("run.md"), "--reporter", "junit="+out("run.xml"), suite)
	if r.code != 0 {
		t.Fatalf("run:\n%s", r)
	}
	run, err := corereport.ReadRun(out("run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(run.ModelCompatibility, []string{"claude-opus-4-7", "gpt-4o"}) {
		t.Errorf("json report: model_compatibility = %q", run.ModelCompatibility)
	}
	read := func(name string) string {
		b, err := os.ReadFile(out(name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	mustContain(t, "html", read("run.html"), "model compatibility: <code>claude-opus-4-7</code>, <code>gpt-4o</code>")
	mustContain(t, "markdown", read("run.md"), "Model compatibility: `claude-opus-4-7`, `gpt-4o`")
	mustContain(t, "junit", read("run.xml"), `<property name="mcptest.model_compatibility" value="claude-opus-4-7, gpt-4o">`)
	// A re-render of the saved run keeps it.
	again := mcptest(t, "report", "--format", "markdown", out("run.json"))
	if again.code != 0 || !strings.Contains(again.stdout, "Model compatibility: `claude-opus-4-7`, `gpt-4o`") {
		t.Errorf("re-render:\n%s", again)
	}
}
