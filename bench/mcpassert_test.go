package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpAssertBin is the prebuilt mcp-assert that .ci/run installs (npm
// @blackwell-systems/mcp-assert, pinned in .ci/npm/package.json).
const mcpAssertBin = ".ci/npm/node_modules/.bin/mcp-assert"

// BenchmarkVsMcpAssert runs the real-server shape (12 echo checks
// against a slow-starting server) written in mcp-assert's own format, one
// YAML file per check, once with mcp-assert (its default mode: a server
// per assertion, one assertion after another) and once with mcptest on the
// suite `mcptest import mcp-assert` makes of the same files, as imported
// (a server per test, as mcp-assert isolates them) and with one server
// shared by the run (mcptest's default). x-mcp-assert and
// x-mcp-assert-shared are how many times faster mcptest is; the budget is
// at least 15x. Two servers: the demo server with --start-delay 350ms, and
// server-everything over stdio (the measurement of issue #19), each
// skipped when not installed (npm install --prefix .ci/npm).
func BenchmarkVsMcpAssert(b *testing.B) {
	bins := builtBinaries(b)
	peer := filepath.Join(moduleRoot(b), mcpAssertBin)
	if _, err := os.Stat(peer); err != nil {
		b.Skipf("mcp-assert is not installed (%v); run npm install --prefix .ci/npm", err)
	}
	// server-everything's gzip tool fetches a URL when called without
	// data; nothing here calls it, and nothing may reach the network.
	b.Setenv("GZIP_ALLOWED_DOMAINS", "mcptest.invalid")
	everything := filepath.Join(moduleRoot(b), ".ci", "npm", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	servers := []struct {
		name    string
		command []string
		needs   string
	}{
		{name: "demo-350ms", command: []string{bins.demo, "--start-delay", realServerDelay}},
		{name: "everything-stdio", command: []string{"node", everything, "stdio"}, needs: everything},
	}
	for _, srv := range servers {
		b.Run(srv.name, func(b *testing.B) {
			if srv.needs != "" {
				if _, err := os.Stat(srv.needs); err != nil {
					b.Skipf("%s is not installed: %v", srv.name, err)
				}
			}
			vsMcpAssert(b, bins, peer, srv.command)
		})
	}
}

// vsMcpAssert times mcp-assert and mcptest on 12 echo checks against
// command, alternating which goes first.
func vsMcpAssert(b *testing.B, bins binaries, peer string, command []string) {
	dir := b.TempDir()
	checks := filepath.Join(dir, "checks")
	if err := os.Mkdir(checks, 0o755); err != nil {
		b.Fatal(err)
	}
	args := ""
	for i, a := range command[1:] {
		if i > 0 {
			args += ", "
		}
		args += fmt.Sprintf("%q", a)
	}
	for i := range realServerTests {
		msg := echoMessage(i)
		doc := fmt.Sprintf("name: echo %04d\nserver:\n  command: %q\n  args: [%s]\n"+
			"assert:\n  tool: echo\n  args:\n    message: %q\n  expect:\n    not_error: true\n    contains: [%q]\ntimeout: 30s\n",
			i, command[0], args, msg, msg)
		if err := os.WriteFile(filepath.Join(checks, fmt.Sprintf("echo_%04d.yaml", i)), []byte(doc), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	suite := filepath.Join(dir, "imported.yml")
	if out, err := exec.Command(bins.mcptest, "import", "mcp-assert", checks, "-o", suite).CombinedOutput(); err != nil {
		b.Fatalf("mcptest import mcp-assert: %v\n%s", err, out)
	}
	// The import keeps mcp-assert's isolation (restart_policy: per_test, a
	// server per test, which mcptest starts side by side); the shared
	// variant is the same suite with mcptest's default of one server for
	// the run, which is what the tests need here (echo keeps no state).
	imported, err := os.ReadFile(suite)
	if err != nil {
		b.Fatal(err)
	}
	shared := filepath.Join(dir, "shared.yml")
	if err := os.WriteFile(shared, []byte(strings.ReplaceAll(string(imported), "    restart_policy: per_test\n", "")), 0o644); err != nil {
		b.Fatal(err)
	}
	peerRun := func() {
		cmd := exec.Command(peer, "run", "--suite", checks)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("mcp-assert run: %v\n%s", err, out)
		}
	}
	peerRun()
	runSuite(b, bins, dir, suite)
	runSuite(b, bins, dir, shared)

	var theirs, ours, oursShared time.Duration
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			theirs += timed(peerRun)
			ours += timed(func() { runSuite(b, bins, dir, suite) })
			oursShared += timed(func() { runSuite(b, bins, dir, shared) })
		} else {
			oursShared += timed(func() { runSuite(b, bins, dir, shared) })
			ours += timed(func() { runSuite(b, bins, dir, suite) })
			theirs += timed(peerRun)
		}
	}
	n := float64(b.N)
	b.ReportMetric(ms(ours)/n, "ms-mcptest")
	b.ReportMetric(ms(oursShared)/n, "ms-mcptest-shared")
	b.ReportMetric(ms(theirs)/n, "ms-mcp-assert")
	b.ReportMetric(float64(theirs)/float64(ours), "x-mcp-assert")
	b.ReportMetric(float64(theirs)/float64(oursShared), "x-mcp-assert-shared")
}
