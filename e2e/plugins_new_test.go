package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPluginsNewScaffoldsEachKind writes a plugin module of every kind with
// `mcptest plugins new --sdk`, then does what its author would: the
// generated Makefile's test and install targets, unchanged, in the new
// module (outside this repository's module). The installed plugin is then
// used by a run (matcher, reporter) or started and described (provider,
// scorer).
func TestPluginsNewScaffoldsEachKind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four plugin modules")
	}
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo has text
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {acme-matcher: true}
  - name: echo of nothing
    server: demo
    tool: echo
    args: {message: ""}
    expect:
      - target: result.content[0].text
        matcher: {acme-matcher: true}
`)
	for _, kind := range []string{"matcher", "reporter", "provider", "scorer"} {
		t.Run(kind, func(t *testing.T) {
			work := t.TempDir()
			plugins := filepath.Join(work, "plugins")
			if err := os.Mkdir(plugins, 0o755); err != nil {
				t.Fatal(err)
			}
			name := "acme-" + kind
			r := mcptestIn(t, work, nil, "plugins", "new", kind, name, "--sdk", filepath.Join(root, "sdk"))
			if r.code != 0 {
				t.Fatalf("plugins new:\n%s", r)
			}
			mustContain(t, "plugins new", r.stdout, "wrote a "+kind+" plugin module in "+name, "main_test.go", "Makefile")

			mk := exec.Command("make", "test", "install", "MCPTEST="+filepath.Join(binDir, "mcptest"), "PLUGIN_DIR="+plugins)
			mk.Dir = filepath.Join(work, name)
			if out, err := mk.CombinedOutput(); err != nil {
				t.Fatalf("make test install in the new module: %v\n%s", err, out)
			} else {
				mustContain(t, "make", string(out), "ok  \t"+name, "installed "+name+"@0.1.0")
			}

			switch kind {
			case "matcher":
				r := mcptest(t, "run", "--plugin-dir", plugins, suite)
				if r.code != 1 {
					t.Fatalf("want exit 1 (one pass, one fail):\n%s", r)
				}
				mustContain(t, "run", r.stdout, "1 passed", "1 failed", "want a non-empty string")
			case "reporter":
				// The quickstart names ./bin/mcptest-demo-server: run it from
				// the folder that holds bin/.
				r := mcptestIn(t, filepath.Dir(binDir), nil, "run", "--plugin-dir", plugins, "--reporter", name,
					filepath.Join(root, "examples", "quickstart.yml"))
				if r.code != 0 {
					t.Fatalf("quickstart with the new reporter:\n%s", r)
				}
				mustContain(t, "report", r.stdout, name+": ", " passed, 0 failed, 0 errored")
			default:
				r := mcptest(t, "plugins", "verify", "--plugin-dir", plugins)
				mustContain(t, "plugins verify", r.stdout, "ok   "+name+"@0.1.0")
			}
		})
	}
	assertNoOrphans(t)
}
