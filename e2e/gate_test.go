package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gateCase is a checkout of the gateprobe fixture plugin with caches of
// its own: the digest cache (MCPTEST_DIGEST_CACHE) and, beside it, the
// vetting cache under test.
type gateCase struct {
	dir       string // scratch folder
	pluginDir string // where gateprobe is installed
	log       string // the plugin's log (GATEPROBE_LOG)
	marker    string // created by the server when it starts
	env       []string
}

func newGateCase(t *testing.T) *gateCase {
	t.Helper()
	dir := t.TempDir()
	g := &gateCase{
		dir:       dir,
		pluginDir: filepath.Join(dir, "plugins"),
		log:       filepath.Join(dir, "plugin.log"),
		marker:    filepath.Join(dir, "server-started"),
		env:       []string{"MCPTEST_DIGEST_CACHE=" + filepath.Join(dir, "cache", "plugin-digests.json")},
	}
	g.install(t, filepath.Join(fixtures, "gateprobe"))
	return g
}

// install installs bin as the gateprobe plugin (recording its digest in
// the case's own digest cache, as any install does).
func (g *gateCase) install(t *testing.T, bin string) {
	t.Helper()
	if err := os.MkdirAll(g.pluginDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(g.pluginDir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	if r := mcptestEnv(t, g.env, "plugins", "install", "--dir", g.pluginDir, bin); r.code != 0 {
		t.Fatalf("install gateprobe:\n%s", r)
	}
}

// suite writes a one-test suite whose assertion has the gateprobe argument
// arg, against the demo server started through a shell that first
// creates the case's marker.
func (g *gateCase) suite(t *testing.T, arg string) string {
	t.Helper()
	return writeSuite(t, fmt.Sprintf(`
servers:
  demo:
    command: ["/bin/sh", "-c", "touch '%s' && exec DEMO"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {gateprobe: %q}
`, g.marker, arg))
}

// run runs the suite with the case's plugins and caches, writing the JSON
// report to report.json; extra is added to the environment.
func (g *gateCase) run(t *testing.T, suite string, extra ...string) result {
	t.Helper()
	_ = os.Remove(g.log)
	_ = os.Remove(g.marker)
	env := append(append([]string{"GATEPROBE_LOG=" + g.log}, g.env...), extra...)
	return mcptestEnv(t, env, "run", suite, "--plugin-dir", g.pluginDir,
		"--reporter", "json="+filepath.Join(g.dir, "report.json"), "--reporter", "pretty")
}

// logged returns the lines the plugin logged in the last run.
func (g *gateCase) logged() []string {
	b, err := os.ReadFile(g.log)
	if err != nil {
		return nil
	}
	return strings.Fields(strings.ReplaceAll(string(b), "\n", " "))
}

func (g *gateCase) serverStarted() bool {
	_, err := os.Stat(g.marker)
	return err == nil
}

// Once a pure plugin has vetted a suite's arguments, later runs start the
// server before the plugin has even finished its handshake: the plugin
// waits for the server's start marker before serving, which would stall
// (and fail the run) if the gate still waited for the plugin. A changed
// argument, or a rebuilt plugin, is vetted again before any server starts.
func TestGateRemembersPureVettingAndStartsServersFirst(t *testing.T) {
	g := newGateCase(t)
	suite := g.suite(t, "fine")

	if r := g.run(t, suite); r.code != 0 {
		t.Fatalf("first run:\n%s", r)
	}
	if got := strings.Join(g.logged(), " "); got != `start vet "fine"` {
		t.Fatalf("first run: the plugin logged %q, want a start and one vetting", got)
	}

	r := g.run(t, suite, "GATEPROBE_WAIT_FOR="+g.marker)
	if r.code != 0 {
		t.Fatalf("second run (the plugin waits for the server to start):\n%s", r)
	}
	if got := strings.Join(g.logged(), " "); got != "start" {
		t.Errorf("second run: the plugin logged %q, want a start and no vetting", got)
	}

	// A changed argument: vetted again, so the plugin starts before the
	// server (the order of the first run).
	if r := g.run(t, g.suite(t, "fine2")); r.code != 0 {
		t.Fatalf("changed argument:\n%s", r)
	}
	if got := strings.Join(g.logged(), " "); got != `start vet "fine2"` {
		t.Errorf("changed argument: the plugin logged %q, want it vetted", got)
	}

	// Another build of the plugin (the same program with bytes appended,
	// so another sha256), installed over the first: vetted again.
	orig, err := os.ReadFile(filepath.Join(fixtures, "gateprobe"))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := filepath.Join(g.dir, "gateprobe-rebuilt")
	if err := os.WriteFile(rebuilt, append(orig, "another build"...), 0o755); err != nil {
		t.Fatal(err)
	}
	g.install(t, rebuilt)
	if r := g.run(t, suite); r.code != 0 {
		t.Fatalf("rebuilt plugin:\n%s", r)
	}
	if got := strings.Join(g.logged(), " "); got != `start vet "fine"` {
		t.Errorf("rebuilt plugin: the plugin logged %q, want it vetted again", got)
	}
	assertNoneUnder(t, g.pluginDir)
}

// A rejected argument stops the run before any server starts, on the
// first run and when the rejection is remembered; the second run does not
// even start the plugin.
func TestGateRememberedRejectionStartsNothing(t *testing.T) {
	g := newGateCase(t)
	suite := g.suite(t, "bad")
	for run, wantLog := range []string{`start vet "bad"`, ""} {
		r := g.run(t, suite)
		if r.code != 2 {
			t.Fatalf("run %d: exit %d, want 2\n%s", run, r.code, r)
		}
		mustContain(t, fmt.Sprintf("run %d stderr", run), r.stderr, "suite.yml:", "/tools/0/expect/0/matcher/gateprobe", "rejects \"bad\" on purpose")
		if g.serverStarted() {
			t.Errorf("run %d: the server started for a suite with a rejected argument", run)
		}
		if got := strings.Join(g.logged(), " "); got != wantLog {
			t.Errorf("run %d: the plugin logged %q, want %q", run, got, wantLog)
		}
	}
	assertNoneUnder(t, g.pluginDir)
}

// A plugin whose arguments were vetted before but that then fails to
// start (beside the servers) fails the run like any start failure: exit
// 2, the plugin named in the report's errors and on stderr, and nothing
// left running.
func TestGatePluginFailingBesideTheServers(t *testing.T) {
	g := newGateCase(t)
	suite := g.suite(t, "fine")
	if r := g.run(t, suite); r.code != 0 {
		t.Fatalf("first run:\n%s", r)
	}
	r := g.run(t, suite, "GATEPROBE_FAIL=1")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, r)
	}
	mustContain(t, "stderr", r.stderr+r.stdout, "gateprobe", "failed to start")
	raw, err := os.ReadFile(filepath.Join(g.dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		ExitCode int `json:"exit_code"`
		Errors   []struct {
			Source, Name, Message string
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range rep.Errors {
		found = found || (e.Source == "plugin" && strings.HasPrefix(e.Name, "gateprobe@") && strings.Contains(e.Message, "failed to start"))
	}
	if rep.ExitCode != 2 || !found {
		t.Errorf("report: exit %d, errors %+v; want 2 and the plugin's start failure", rep.ExitCode, rep.Errors)
	}
	assertNoneUnder(t, g.pluginDir)
	assertNoOrphans(t)
}

// assertNoneUnder fails when a process whose executable lies under dir is
// still alive shortly after mcptest exited.
func assertNoneUnder(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		var left []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && strings.HasPrefix(exe, dir) {
				left = append(left, e.Name()+" "+exe)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
