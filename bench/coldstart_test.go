// Package bench holds the end-to-end benchmarks of the DESIGN.md
// performance budgets that need the built binaries (`make build`): each one
// measures mcptest next to a floor taken in the same run, because the
// machine is shared and absolute times mean little. bench/run.sh runs them
// and prints the verdicts; nothing here asserts a time.
package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// protocolVersion is what mcptest negotiates by default; the bare client
// pins it so both sides run the same handshake.
const protocolVersion = "2025-11-25"

// BenchmarkColdStart measures `mcptest run` of a one-test suite (one echo
// call, one exact assertion) against a bare mcp-go client that starts the
// same demo server and makes the same call. The difference is what mcptest
// adds beyond the server's own start: its own exec, suite loading, plugin
// discovery and start (checksum included), reporting and shutdown. For
// information it also times the same test run with a contains assertion
// and the junit reporter (ms-run-plugins, ms-overhead-plugins), a run
// that must start a matcher and a reporter plugin.
//
// Each op runs both, alternating which goes first, so drift in machine
// load hits both alike; ns/op is their sum and the metrics split it.
func BenchmarkColdStart(b *testing.B) {
	bins := builtBinaries(b)
	dir := b.TempDir()
	suite := filepath.Join(dir, "coldstart.yml")
	writeSuite(b, suite, bins.demo, 1)
	// The same test with a contains assertion and the junit reporter: the
	// exact assertion that passes by identity and the json report can be
	// done without their plugins (docs/performance.md), these cannot, so
	// this variant shows what a run pays that starts both plugins.
	plugins := filepath.Join(dir, "coldstart-plugins.yml")
	writeSuiteWith(b, plugins, bins.demo, 1, "contains")
	withPlugins := func() { runSuiteAs(b, bins, dir, plugins, "junit") }

	// One untimed round of each, so page cache and first-exec costs are
	// not charged to whichever happens to run first.
	bareOneCall(b, bins.demo)
	runSuite(b, bins, dir, suite)
	withPlugins()

	ways := []func(){
		func() { bareOneCall(b, bins.demo) },
		func() { runSuite(b, bins, dir, suite) },
		withPlugins,
	}
	var spent [3]time.Duration
	b.ResetTimer()
	for i := range b.N {
		// Rotating the order, so drift in load hits all three alike.
		for k := range ways {
			w := (i + k) % len(ways)
			spent[w] += timed(ways[w])
		}
	}
	n := float64(b.N)
	bare, run, all := spent[0], spent[1], spent[2]
	b.ReportMetric(ms(run)/n, "ms-run")
	b.ReportMetric(ms(bare)/n, "ms-floor")
	b.ReportMetric(ms(run-bare)/n, "ms-overhead")
	b.ReportMetric(ms(all)/n, "ms-run-plugins")
	b.ReportMetric(ms(all-bare)/n, "ms-overhead-plugins")
}

func bareOneCall(b *testing.B, demo string) {
	c := bareClient(b, demo)
	callEcho(b, c, "hello from the cold-start benchmark")
	if err := c.Close(); err != nil {
		b.Fatalf("close the bare client: %v", err)
	}
}

// bareClient starts demo over stdio and initializes it at protocolVersion.
func bareClient(b *testing.B, demo string) *client.Client {
	ctx := context.Background()
	c := client.NewClient(transport.NewStdio(demo, nil), client.WithProtocolVersion(protocolVersion))
	if err := c.Start(ctx); err != nil {
		b.Fatalf("start %s: %v", demo, err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: protocolVersion,
		ClientInfo:      mcp.Implementation{Name: "mcptest-bench", Version: "1"},
	}}); err != nil {
		b.Fatalf("initialize %s: %v", demo, err)
	}
	return c
}

// callEcho calls the demo server's echo tool and checks the answer, so a
// broken server cannot look fast.
func callEcho(b *testing.B, c *client.Client, msg string) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"message": msg}
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		b.Fatalf("call echo: %v", err)
	}
	if res.IsError || len(res.Content) == 0 {
		b.Fatalf("echo returned an error or no content: %+v", res)
	}
	if tc, ok := res.Content[0].(mcp.TextContent); !ok || tc.Text != msg {
		b.Fatalf("echo returned %+v, want the text %q", res.Content[0], msg)
	}
}

// runSuite runs `mcptest run suite --reporter json -o /dev/null` from dir
// and fails the benchmark unless every test passed (exit 0).
func runSuite(b *testing.B, bins binaries, dir, suite string) {
	runSuiteAs(b, bins, dir, suite, "json")
}

// runSuiteAs runs suite with one reporter writing to /dev/null.
func runSuiteAs(b *testing.B, bins binaries, dir, suite, reporter string) {
	cmd := exec.Command(bins.mcptest, "run", suite, "--reporter", reporter, "-o", os.DevNull)
	// A temporary cwd keeps the repository's or the user's project plugins
	// (./.mcptest/plugins) out of the measurement.
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s run %s: %v\n%s", bins.mcptest, suite, err, out)
	}
}

// writeSuite writes a suite of n echo tests against demo (an absolute
// path, so the suite runs from any directory), each with one exact
// assertion on the echoed text.
func writeSuite(b *testing.B, path, demo string, n int) {
	writeSuiteWith(b, path, demo, n, "exact")
}

// writeSuiteWith is writeSuite with another text matcher key, whose
// argument is the whole echoed message.
func writeSuiteWith(b *testing.B, path, demo string, n int, key string) {
	b.Helper()
	buf := fmt.Appendf(nil, "servers:\n  demo:\n    command: [%q]\n\ntools:\n", demo)
	for i := range n {
		msg := echoMessage(i)
		buf = fmt.Appendf(buf, "  - name: echo %04d\n    server: demo\n    tool: echo\n    args: {message: %q}\n"+
			"    expect:\n      - target: result.content[0].text\n        matcher: {%s: %q}\n", i, msg, key, msg)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.Fatal(err)
	}
}

// echoMessage is the text test i of a generated suite sends to echo.
func echoMessage(i int) string { return fmt.Sprintf("hello from benchmark test %04d", i) }

// binaries are the built programs the end-to-end benchmarks run.
type binaries struct {
	mcptest, demo string
}

// builtBinaries finds bin/mcptest and bin/mcptest-demo-server at the
// module root, skipping the benchmark when they have not been built.
func builtBinaries(b *testing.B) binaries {
	b.Helper()
	bin := filepath.Join(moduleRoot(b), "bin")
	bins := binaries{mcptest: filepath.Join(bin, "mcptest"), demo: filepath.Join(bin, "mcptest-demo-server")}
	for _, p := range []string{bins.mcptest, bins.demo, filepath.Join(bin, "mcptest-plugins")} {
		if _, err := os.Stat(p); err != nil {
			b.Skipf("%s is missing; run make build first", p)
		}
	}
	return bins
}

// moduleRoot walks up from the package directory to the go.mod.
func moduleRoot(b *testing.B) string {
	b.Helper()
	dir, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			b.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
