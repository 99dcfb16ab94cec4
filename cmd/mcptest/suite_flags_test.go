package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs the command line in-process and returns the exit code and what
// it printed. The plugin search is confined to the given directories.
func cli(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := mainCode(args, &out, &errb)
	return code, out.String(), errb.String()
}

// isolate keeps the user's plugins and variables out of a test.
func isolate(t testing.TB) {
	t.Setenv("MCPTEST_PLUGIN_PATH", "")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("MCPTEST_STRICT_VARS", "")
}

func writeSuite(t testing.TB, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestValidateNotesGapsAndOverrides(t *testing.T) {
	isolate(t)
	suite := writeSuite(t, `servers:
  api: {command: ["./api"]}
tools:
  - {name: t, server: api, tool: echo}
evals:
  - {name: e, server: api, prompt: p, rubric: "be right"}
`)
	code, stdout, stderr := cli(t, "validate", "--server-url", "https://preview.example.com/mcp", suite)
	if code != 0 {
		t.Fatalf("validate exited %d:\n%s", code, stderr)
	}
	if stdout != "1 suite(s), 2 test(s): valid\n" {
		t.Errorf("stdout = %q", stdout)
	}
	for _, want := range []string{
		"mcptest: server overrides in effect: api: url=https://preview.example.com/mcp (--server-url)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "server overrides in effect"); n != 1 {
		t.Errorf("the banner is printed %d times", n)
	}
}

func TestRunRefusesGapsAndEmptySelections(t *testing.T) {
	isolate(t)
	suite := writeSuite(t, `servers:
  api: {command: ["./never-started"]}
tools:
  - {name: plain, server: api, tool: echo, tags: [smoke]}
evals:
  - {name: e, server: api, prompt: p, rubric: "be right"}
`)
	code, _, stderr := cli(t, "run", "--tag", "nothing-has-this", suite)
	if code != 2 || !strings.Contains(stderr, "no test matches the selection (--tag nothing-has-this --profile standard)") {
		t.Errorf("run with an empty selection: exit %d\n%s", code, stderr)
	}
	code, _, stderr = cli(t, "run", "--profile", "slow", suite)
	if code != 2 || !strings.Contains(stderr, `unknown profile "slow"`) {
		t.Errorf("run with a bad profile: exit %d\n%s", code, stderr)
	}
	code, _, stderr = cli(t, "validate", "--env-file", filepath.Join(t.TempDir(), "missing.env"), suite)
	if code != 2 || !strings.Contains(stderr, "cannot read the dotenv file") {
		t.Errorf("validate with a missing --env-file: exit %d\n%s", code, stderr)
	}
}

func TestStrictVariablesFromTheEnvironment(t *testing.T) {
	isolate(t)
	suite := writeSuite(t, "servers:\n  api: {command: [\"./api\", \"${MCPTEST_TEST_UNSET_VAR}\"]}\n")
	code, _, stderr := cli(t, "validate", suite)
	if code != 0 || !strings.Contains(stderr, "mcptest: warning: ") || !strings.Contains(stderr, "MCPTEST_TEST_UNSET_VAR (") {
		t.Errorf("validate: exit %d\n%s", code, stderr)
	}
	t.Setenv("MCPTEST_STRICT_VARS", "1")
	code, _, stderr = cli(t, "validate", suite)
	if code != 2 || !strings.Contains(stderr, "unresolved variable MCPTEST_TEST_UNSET_VAR") {
		t.Errorf("strict validate: exit %d\n%s", code, stderr)
	}
}

// BenchmarkValidate10k measures `mcptest validate` end to end on a
// generated suite of 10,000 tool tests with two assertions each: load,
// plan, start the text matcher plugin and have it vet 20,000 arguments.
// The budget is under one second.
func BenchmarkValidate10k(b *testing.B) {
	isolate(b)
	pluginDir := installTextPlugin(b)
	suite := writeBigSuite(b, 10_000)
	b.ResetTimer()
	for b.Loop() {
		code, _, stderr := cli(b, "validate", "--plugin-dir", pluginDir, suite)
		if code != 0 {
			b.Fatalf("validate exited %d:\n%s", code, stderr)
		}
	}
}

// installTextPlugin builds the bundled text matcher plugin and installs it
// into a plugin directory.
func installTextPlugin(b *testing.B) string {
	b.Helper()
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "mcptest-text")
	build := exec.Command("go", "build", "-o", bin, "../../plugins/matchers/text")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the text plugin: %v\n%s", err, out)
	}
	dir := filepath.Join(tmp, "plugins")
	if code, _, stderr := cli(b, "plugins", "install", "--dir", dir, bin); code != 0 {
		b.Fatalf("install the text plugin:\n%s", stderr)
	}
	return dir
}

// writeBigSuite writes a suite of n tool tests.
func writeBigSuite(b *testing.B, n int) string {
	b.Helper()
	var s strings.Builder
	s.WriteString("servers:\n  local: {command: [\"./server\"]}\n  other: {command: [\"./other\"]}\n")
	s.WriteString("variables:\n  greeting: {value: hello}\ntools:\n")
	for i := range n {
		server := []string{"local", "other"}[i%2]
		fmt.Fprintf(&s, `  - name: "generated test %05d"
    server: %s
    tool: echo
    args: {message: "${greeting} %d", count: %d, nested: {list: [1, 2, 3], flag: true}}
    tags: [smoke, generated]
    expect:
      - target: result.content[0].text
        matcher: {contains: "${greeting}"}
      - target: result.isError
        matcher: {exact: false}
`, i, server, i, i)
	}
	return writeSuite(b, s.String())
}

func TestConfigFlagNamesASuite(t *testing.T) {
	isolate(t)
	suite := writeSuite(t, `servers:
  api: {command: ["./never-started"]}
tools:
  - {name: a, server: api, tool: echo}
  - {name: b, server: api, tool: echo}
`)
	// The spec's form, --config FILE, loads the suite as a positional
	// argument does, in validate and in run.
	for _, args := range [][]string{{"validate", "--config", suite}, {"validate", "--config=" + suite}, {"validate", suite}} {
		code, stdout, stderr := cli(t, args...)
		if code != 0 || stdout != "1 suite(s), 2 test(s): valid\n" {
			t.Errorf("%q: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.yml")
	code, _, stderr := cli(t, "run", "--config", missing)
	if code != 2 || !strings.Contains(stderr, missing+": suite file not found") {
		t.Errorf("run --config: exit %d\n%s", code, stderr)
	}
	code, _, stderr = cli(t, "run")
	if code != 2 || !strings.Contains(stderr, "no suite given") {
		t.Errorf("run without a suite: exit %d\n%s", code, stderr)
	}
}

// --max-cost takes an amount of US dollars (a leading $ is allowed) and
// refuses anything else before loading a suite; mcptest eval refuses
// suites without evals.
func TestEvalFlagsAndSuitesWithoutEvals(t *testing.T) {
	isolate(t)
	suite := writeSuite(t, "servers:\n  api: {command: [\"./never-started\"]}\ntools:\n  - {name: plain, server: api, tool: echo}\n")
	for _, bad := range []string{"-1", "NaN", "Inf", "lots"} {
		code, _, stderr := cli(t, "eval", "--max-cost", bad, suite)
		if code != 2 || !strings.Contains(stderr, "give a budget in US dollars") {
			t.Errorf("--max-cost %s: exit %d\n%s", bad, code, stderr)
		}
	}
	code, _, stderr := cli(t, "eval", "--max-cost", "$0.25", suite)
	if code != 2 || !strings.Contains(stderr, "the suites have no evals: block") {
		t.Errorf("eval of a suite without evals: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := cli(t, "eval", "--list", writeSuite(t, "servers:\n  api: {command: [\"./never-started\"]}\nevals:\n  - {name: e, server: api, prompt: p, response: r, rubric: good, matrix: {prompts: [a, b]}}\n"))
	if code != 0 || !strings.Contains(stdout, "e [prompt 2]") || !strings.Contains(stdout, "2 tests") {
		t.Errorf("eval --list: exit %d\n%s", code, stdout)
	}
}
