package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The bundled json reporter declares its output canonical
// (sdk.CanonicalReporter), so mcptest writes the json report itself and
// starts no json plugin process: the document is byte for byte the one the
// plugin writes. With the digest cache off, the json plugin's executable
// is not vouched for without hashing, so the plugin renders it as before:
// both renders of one saved report (HTML characters, unicode, escapes, a
// failure) must be the same bytes.
func TestJSONReportIsWrittenWithoutThePluginAndIsThePluginsBytes(t *testing.T) {
	dir := t.TempDir()
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: "echo <b>&</b> ✓ \u001b[1m"
    server: demo
    tool: echo
    args: {message: "a <tag> & \"quote\" ✓"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "quote"}
  - name: fails
    server: demo
    tool: echo
    args: {message: "x"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "y <&>"}
`)
	saved := filepath.Join(dir, "run.json")
	tl := filepath.Join(dir, "timeline")
	env := []string{"MCPTEST_TIMELINE=" + tl}
	r := mcptestEnv(t, env, "run", suite, "--reporter", "json", "-o", saved)
	if r.code != 1 {
		t.Fatalf("run: %s", r)
	}
	if strings.Contains(readFile(t, tl), "plugin-launch json") {
		t.Errorf("the json plugin was started for the run's report:\n%s", readFile(t, tl))
	}

	render := func(name string, env ...string) []byte {
		out := filepath.Join(dir, name)
		_ = os.Remove(tl)
		if r := mcptestEnv(t, append(env, "MCPTEST_TIMELINE="+tl), "report", "--format", "json", "-o", out, saved); r.code != 0 {
			t.Fatalf("report %s: %s", name, r)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	host := render("host.json")
	hostLaunched := strings.Contains(readFile(t, tl), "plugin-launch json")
	byPlugin := render("plugin.json", "MCPTEST_DIGEST_CACHE=off")
	pluginLaunched := strings.Contains(readFile(t, tl), "plugin-launch json")
	if hostLaunched || !pluginLaunched {
		t.Fatalf("json plugin started: %v with the digest cache, %v without; want false, true", hostLaunched, pluginLaunched)
	}
	if string(host) != string(byPlugin) {
		t.Fatalf("mcptest's json report differs from the plugin's:\n--- mcptest\n%s\n--- plugin\n%s", host, byPlugin)
	}
	for _, want := range []string{"<b>&</b> ✓", `\u001b[1m`} {
		if !strings.Contains(string(host), want) {
			t.Errorf("report lacks %q:\n%s", want, host)
		}
	}
	if !slices.Contains(strings.Split(string(host), "\n"), "}") || !strings.HasSuffix(string(host), "}\n") {
		t.Errorf("report does not end with its closing brace and a newline")
	}
}
