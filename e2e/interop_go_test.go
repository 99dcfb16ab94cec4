package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/proc"
)

// The example servers of the two Go MCP SDKs, run with `go run
// pkg@version` exactly as the suites in examples/interop/ say: nothing is
// checked out and mcptest's go.mod does not change. .ci/run builds them
// once; the tests then point the Go command at the module cache
// (GOPROXY=file://...), so they never download.
const (
	mcpGoEverything = "github.com/mark3labs/mcp-go/examples/everything@v1.2.1"
	goSDKEverything = "github.com/modelcontextprotocol/go-sdk/examples/server/everything@v1.8.0"
)

// Suites and their test counts, so a test dropped from one is noticed.
const (
	mcpGoSuite = "examples/interop/mcp-go-everything.yml"
	mcpGoTests = 17
	goSDKSuite = "examples/interop/go-sdk-everything.yml"
	goSDKTests = 16
	// goFeaturesSuite uses both servers, the go-sdk one with client mocks.
	goFeaturesSuite = "examples/interop/go-servers-features.yml"
	goFeaturesTests = 6
)

// goRunEnv returns the environment under which `go run pkg` works offline
// from the module cache, after checking that it does: without the
// modules (.ci/run fetches them) the test skips, or fails in CI.
func goRunEnv(t *testing.T, pkg string) []string {
	t.Helper()
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	env := []string{
		"GOPROXY=file://" + filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"),
		// A GOFLAGS of -mod=vendor would refuse pkg@version.
		"GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
	}
	cmd := exec.Command("go", "run", pkg, "-h")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("go run %s -h: %v\n%s", pkg, err, out)
	}
	need(t, pkg+" in the Go module cache (.ci/run fetches it)", err == nil)
	return env
}

func TestInteropMCPGoEverythingStdio(t *testing.T) {
	env := goRunEnv(t, mcpGoEverything)
	r, rep := runInterop(t, env, mcpGoSuite)
	wantAllPassed(t, r, rep, mcpGoTests)
	wantServer(t, rep, "stdio", "example-servers/everything")
}

func TestInteropGoSDKEverythingStdio(t *testing.T) {
	env := goRunEnv(t, goSDKEverything)
	r, rep := runInterop(t, env, goSDKSuite)
	wantAllPassed(t, r, rep, goSDKTests)
	wantServer(t, rep, "stdio", "everything")
}

// TestInteropGoSDKEverythingModern runs the go-sdk suite in the stateless
// era (2026-07-28), which the official Go SDK speaks: server/discover, the
// protocol _meta on every request, results with resultType. Two tests pin
// legacy behaviour and are left out: one compares a whole result, which
// the era extends with _meta, and one expects the legacy refusal of an
// elicitation, which the era replaces with input requests.
func TestInteropGoSDKEverythingModern(t *testing.T) {
	env := goRunEnv(t, goSDKEverything)
	r, rep := runInterop(t, env, "--target-version", "2026-07-28",
		"--exclude", "a prompt with an argument", "--exclude", "elicitation is refused without the client capability", goSDKSuite)
	wantAllPassed(t, r, rep, goSDKTests-2)
	if len(rep.Servers) != 1 || rep.Servers[0].ProtocolVersion != "2026-07-28" || rep.Servers[0].ServerName != "everything" {
		t.Errorf("server record = %+v; want the go-sdk server at 2026-07-28", rep.Servers)
	}
}

// TestInteropGoSDKEverythingStreamableHTTP runs the same suite against the
// server's Streamable HTTP mode on a free port. (mcp-go's example listens
// on the fixed address :8080 in its HTTP mode, so it is left out.)
func TestInteropGoSDKEverythingStreamableHTTP(t *testing.T) {
	env := goRunEnv(t, goSDKEverything)
	port := startGoHTTPServer(t, env, goSDKEverything, "-http")
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	r, rep := runInterop(t, nil, "--server-url", "gosdk="+url, goSDKSuite)
	wantAllPassed(t, r, rep, goSDKTests)
	wantServer(t, rep, "streamable", "everything")
}

// startGoHTTPServer runs `go run pkg flag 127.0.0.1:PORT` on a free port in
// a process group of its own (go run starts the server as its child),
// waits until the port accepts connections, and kills the group at
// cleanup.
func startGoHTTPServer(t *testing.T, env []string, pkg, flag string) int {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command("go", "run", pkg, flag, fmt.Sprintf("127.0.0.1:%d", port))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	proc.SetGroup(cmd)
	// go run starts the server as a child: kill the whole group.
	startListening(t, cmd, port, pkg, 60*time.Second, func(cmd *exec.Cmd) { _ = proc.SignalGroup(cmd.Process.Pid, proc.SigKill) })
	return port
}

// needClientMocks fails the test when suite, which uses the `client:`
// mocks of a server, does not validate.
func needClientMocks(t *testing.T, suite string) {
	t.Helper()
	if v := mcptest(t, "validate", suite); v.code != 0 {
		t.Fatalf("%s does not validate:\n%s", suite, v)
	}
}

func TestInteropGoServersFeaturesStdio(t *testing.T) {
	needClientMocks(t, goFeaturesSuite)
	goRunEnv(t, mcpGoEverything)
	env := goRunEnv(t, goSDKEverything)
	r, rep := runInterop(t, env, goFeaturesSuite)
	wantAllPassed(t, r, rep, goFeaturesTests)
	wantTransports(t, rep, map[string]string{"gosdk": "stdio", "mcpgo": "stdio"})
}

// TestInteropGoServersFeaturesStreamableHTTP: the mocks answer the go-sdk
// server's requests over Streamable HTTP too; mcp-go's stays on stdio.
func TestInteropGoServersFeaturesStreamableHTTP(t *testing.T) {
	needClientMocks(t, goFeaturesSuite)
	goRunEnv(t, mcpGoEverything)
	env := goRunEnv(t, goSDKEverything)
	port := startGoHTTPServer(t, env, goSDKEverything, "-http")
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	r, rep := runInterop(t, env, "--server-url", "gosdk="+url, goFeaturesSuite)
	wantAllPassed(t, r, rep, goFeaturesTests)
	wantTransports(t, rep, map[string]string{"gosdk": "streamable", "mcpgo": "stdio"})
}

// wantTransports checks the transport the report records for each server.
func wantTransports(t *testing.T, rep interopReport, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, s := range rep.Servers {
		got[s.Name] = s.Transport
		if s.ProtocolVersion != "2025-11-25" {
			t.Errorf("server %s spoke %q, want 2025-11-25", s.Name, s.ProtocolVersion)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("transports = %v, want %v", got, want)
	}
}

// TestInteropGoServersFailHonestly: wrong expectations against both Go
// servers fail, and the failures show what the servers really said.
func TestInteropGoServersFailHonestly(t *testing.T) {
	goRunEnv(t, mcpGoEverything)
	env := goRunEnv(t, goSDKEverything)
	suite := writeSuite(t, `
servers:
  mcpgo:
    command: ["go", "run", "`+mcpGoEverything+`"]
  gosdk:
    command: ["go", "run", "`+goSDKEverything+`"]
defaultTest:
  timeout_ms: 30000
tools:
  - name: mcp-go does not print 42 plainly
    server: mcpgo
    tool: add
    args: {a: 40, b: 2}
    expect:
      - target: result.content[0].text
        matcher: {exact: "The sum of 40 and 2 is 42."}
  - name: go-sdk says hi, not hello
    server: gosdk
    tool: "greet (structured)"
    args: {name: Ada}
    expect:
      - target: result.structuredContent.message
        matcher: {exact: "Hello Ada"}
  - name: go-sdk's unknown tool is no isError result
    server: gosdk
    tool: no-such-tool
    expect:
      - target: result.isError
        matcher: {exact: true}
`)
	r, rep := runInterop(t, env, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if s := rep.Summary; s.Total != 3 || s.Failed != 3 {
		t.Fatalf("want 3 failed, got %+v\n%s", s, r)
	}
	mustContain(t, "output", r.stdout, "The sum of 40.000000 and 2.000000 is 42.000000.", `"Hi Ada"`, `unknown tool \"no-such-tool\"`)
}

// TestInteropGoSDKElicitationCrash: the go-sdk example server reads the
// accepted content of its form elicitation without checking it, so a
// declined elicitation makes it panic and exit. mcptest reports the test
// as errored because the server exited, with the panic's trace from its
// stderr, and leaves no process behind.
func TestInteropGoSDKElicitationCrash(t *testing.T) {
	env := goRunEnv(t, goSDKEverything)
	suite := writeSuite(t, `
servers:
  gosdk:
    command: ["go", "run", "`+goSDKEverything+`"]
    client:
      elicitation: {action: decline}
tools:
  - name: a declined elicitation crashes the server
    server: gosdk
    tool: "elicit (form)"
    timeout_ms: 30000
`)
	needClientMocks(t, suite)
	r, rep := runInterop(t, env, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 (an errored test):\n%s", r)
	}
	if len(rep.Tests) != 1 {
		t.Fatalf("want one test, got %+v", rep.Tests)
	}
	tc := rep.Tests[0]
	if tc.Status != "errored" || tc.Error == nil || tc.Error.Kind != "server_exited" {
		t.Fatalf("test = %s %+v, want errored with server_exited\n%s", tc.Status, tc.Error, r)
	}
	// The tail holds the end of the goroutine trace, and go run's report
	// that the server exited with 2, the status of an unrecovered panic.
	mustContain(t, "the test's stderr tail", tc.Stderr, "created by github.com/modelcontextprotocol/go-sdk", "exit status 2")
	mustContain(t, "the test's error", tc.Error.Message, `server "gosdk" exited`)
}
