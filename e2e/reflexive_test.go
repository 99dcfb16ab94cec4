package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// reflexiveRun runs suite with the caches under dir and returns the result,
// the names of its timeline marks, and the report's tests and summary with
// their times removed.
func reflexiveRun(t *testing.T, dir, suite string) (result, []string, any) {
	t.Helper()
	tl := filepath.Join(dir, "timeline")
	_ = os.Remove(tl)
	out := filepath.Join(dir, "report.json")
	r := mcptestEnv(t, []string{"MCPTEST_DIGEST_CACHE=" + filepath.Join(dir, "cache", "plugin-digests.json"), "MCPTEST_TIMELINE=" + tl},
		"run", suite, "--reporter", "json", "-o", out)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, tl)), "\n") {
		if f := strings.SplitN(line, " ", 3); len(f) == 3 {
			names = append(names, f[2])
		}
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(readFile(t, out)), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, r)
	}
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "duration_ms")
			delete(v, "at_ms")
			for k, x := range v {
				v[k] = strip(x)
			}
		case []any:
			for i, x := range v {
				v[i] = strip(x)
			}
		}
		return v
	}
	return r, names, strip(map[string]any{"tests": rep["tests"], "summary": rep["summary"], "exit_code": rep["exit_code"]})
}

// The text plugin declares exact reflexive: once its argument's verdict is
// remembered, a passing exact assertion (the actual text written as the
// argument) is recorded as passed by text@version without the plugin
// process ever starting, and the report is the one the plugin's own verdict
// gave; an exact assertion that fails still starts the plugin, which
// judges it, and its failure is reported as before.
func TestReflexiveExactDoesNotStartTheTextPlugin(t *testing.T) {
	dir := t.TempDir()
	suite := func(want string) string {
		return writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "`+want+`"}
`)
	}
	// A first run has the plugin's digest verified and remembered in this
	// test's digest cache: verdicts are remembered only for an executable
	// the cache vouches for.
	if r, _, _ := reflexiveRun(t, dir, suite("hi")); r.code != 1 {
		t.Fatalf("warm-up run: %s", r)
	}
	for _, tc := range []struct {
		want string
		code int
	}{{"hi there", 0}, {"hi where", 1}} {
		s := suite(tc.want)
		// First run: the argument is new, so the gate asks the plugin.
		r, names, first := reflexiveRun(t, dir, s)
		if r.code != tc.code || !slices.Contains(names, "plugin-launch text") {
			t.Fatalf("first run of exact %q: %s\ntimeline %q", tc.want, r, names)
		}
		// Second run: the verdict is remembered.
		r, names, second := reflexiveRun(t, dir, s)
		if r.code != tc.code {
			t.Fatalf("second run of exact %q: %s", tc.want, r)
		}
		launched := slices.Index(names, "plugin-launch text")
		if tc.code == 0 && launched >= 0 {
			t.Errorf("a passing exact assertion started the text plugin: %q", names)
		}
		if tc.code == 1 && (launched < 0 || launched < slices.Index(names, "server-ready demo")) {
			t.Errorf("a failing exact assertion did not start the text plugin when it was needed: %q", names)
		}
		if !reflect.DeepEqual(first, second) {
			t.Errorf("exact %q: the report changed\nwith the plugin asked: %v\nwithout:              %v", tc.want, first, second)
		}
	}
}
