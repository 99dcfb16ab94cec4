package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcpAssertBin is the prebuilt mcp-assert that .ci/run installs (npm
// @blackwell-systems/mcp-assert, pinned in .ci/npm/package.json).
const mcpAssertBin = ".ci/npm/node_modules/.bin/mcp-assert"

// BenchmarkVsMcpAssert runs the real-server shape (12 echo checks
// against a slow-starting server) written in mcp-assert's own format, one
// YAML file per check, with mcp-assert (its default mode: a server per
// assertion, one assertion after another) and with mcptest on the suites
// `mcptest import mcp-assert` makes of the same files: as imported
// (restart_policy after_write: a process is kept across tests that only
// read, here one for the run since echo is annotated readOnlyHint),
// with --strict-isolation (per_test: a process per test, as mcp-assert)
// and with --share-servers (per_run). x-mcp-assert, x-mcp-assert-strict
// and x-mcp-assert-shared are how many times faster mcptest is; the
// budget is at least 15x. The floor is a bare client making one start,
// initialize and the 12 calls; x-ceiling (mcp-assert / floor) is the best
// ratio any tool that starts the server once can reach on that server.
// Two servers: the demo server with --start-delay 350ms, and
// server-everything over stdio (the measurement of issue #19), the latter
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

// vsMcpAssert times mcp-assert, mcptest on the three imports and the
// floor on 12 echo checks against command, rotating which goes first.
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
	imported := importChecks(b, bins, dir, checks, "imported.yml", "restart_policy: after_write")
	strict := importChecks(b, bins, dir, checks, "strict.yml", "restart_policy: per_test", "--strict-isolation")
	shared := importChecks(b, bins, dir, checks, "shared.yml", "", "--share-servers")
	peerRun := func() {
		cmd := exec.Command(peer, "run", "--suite", checks)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("mcp-assert run: %v\n%s", err, out)
		}
	}
	// One warm-up of each, then every op runs all five, each op starting
	// one further along the list, so that none always follows another.
	var d [5]time.Duration
	runs := []func(){
		peerRun,
		func() { runSuite(b, bins, dir, imported) },
		func() { runSuite(b, bins, dir, strict) },
		func() { runSuite(b, bins, dir, shared) },
		func() { floorContains(b, command, realServerTests) },
	}
	for _, f := range runs {
		f()
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range runs {
			k := (i + j) % len(runs)
			d[k] += timed(runs[k])
		}
	}
	theirs, ours, oursStrict, oursShared, floor := d[0], d[1], d[2], d[3], d[4]
	n := float64(b.N)
	b.ReportMetric(ms(theirs)/n, "ms-mcp-assert")
	b.ReportMetric(ms(ours)/n, "ms-mcptest")
	b.ReportMetric(ms(oursStrict)/n, "ms-mcptest-strict")
	b.ReportMetric(ms(oursShared)/n, "ms-mcptest-shared")
	b.ReportMetric(ms(floor)/n, "ms-floor")
	b.ReportMetric(float64(theirs)/float64(ours), "x-mcp-assert")
	b.ReportMetric(float64(theirs)/float64(oursStrict), "x-mcp-assert-strict")
	b.ReportMetric(float64(theirs)/float64(oursShared), "x-mcp-assert-shared")
	b.ReportMetric(float64(theirs)/float64(floor), "x-ceiling")
}

// importChecks runs `mcptest import mcp-assert` on checks with flags into
// dir/name and checks the suite names the restart policy want ("": none).
func importChecks(b *testing.B, bins binaries, dir, checks, name, want string, flags ...string) string {
	b.Helper()
	suite := filepath.Join(dir, name)
	args := append(append([]string{"import", "mcp-assert"}, flags...), checks, "-o", suite)
	if out, err := exec.Command(bins.mcptest, args...).CombinedOutput(); err != nil {
		b.Fatalf("mcptest %v: %v\n%s", args, err, out)
	}
	raw, err := os.ReadFile(suite)
	if err != nil {
		b.Fatal(err)
	}
	if has := strings.Contains(string(raw), "restart_policy"); (want == "" && has) || (want != "" && !strings.Contains(string(raw), want)) {
		b.Fatalf("mcptest %v wrote no %q:\n%s", args, want, raw)
	}
	return suite
}

// floorContains is the floor of the checks: one server start and
// initialize by a bare mcp-go client, the n echo calls in order, each
// answer checked as the checks do (not an error, the message in its
// text), and the close.
func floorContains(b *testing.B, command []string, n int) {
	ctx := context.Background()
	c := client.NewClient(transport.NewStdio(command[0], nil, command[1:]...), client.WithProtocolVersion(protocolVersion))
	if err := c.Start(ctx); err != nil {
		b.Fatalf("start %v: %v", command, err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: protocolVersion,
		ClientInfo:      mcp.Implementation{Name: "mcptest-bench", Version: "1"},
	}}); err != nil {
		b.Fatalf("initialize %v: %v", command, err)
	}
	for i := range n {
		msg := echoMessage(i)
		req := mcp.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = map[string]any{"message": msg}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			b.Fatalf("call echo: %v", err)
		}
		if res.IsError || len(res.Content) == 0 {
			b.Fatalf("echo returned an error or no content: %+v", res)
		}
		if tc, ok := res.Content[0].(mcp.TextContent); !ok || !strings.Contains(tc.Text, msg) {
			b.Fatalf("echo returned %+v, want a text with %q", res.Content[0], msg)
		}
	}
	if err := c.Close(); err != nil {
		b.Fatalf("close the bare client: %v", err)
	}
}
