package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/servertest"
)

// Server features: progress, logging, sampling, elicitation, roots and
// resource subscriptions, against the demo server and server-everything,
// over stdio, Streamable HTTP and legacy HTTP+SSE. docs/server-features.md
// describes the YAML.

const (
	demoFeaturesSuite       = "examples/server-features.yml"
	demoFeaturesTests       = 14
	everythingFeaturesSuite = "examples/interop/everything-features.yml"
	everythingFeaturesTests = 8
)

// startDemoMode runs the demo server with --http or --sse on a free port
// and returns the URL it prints.
func startDemoMode(t *testing.T, mode string) string {
	t.Helper()
	u, _ := servertest.StartURL(t, filepath.Join(binDir, "mcptest-demo-server"), nil, mode, "127.0.0.1:0")
	return u
}

// demoFeatures is the demo's server-features suite with the demo's path
// made absolute, so it runs from the repository root.
func demoFeatures(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, demoFeaturesSuite))
	if err != nil {
		t.Fatal(err)
	}
	return writeSuite(t, strings.ReplaceAll(string(raw), "./bin/mcptest-demo-server", "DEMO"))
}

// wantTransport checks the one server the report records.
func wantTransport(t *testing.T, rep interopReport, transport, version, serverName string) {
	t.Helper()
	if len(rep.Servers) != 1 {
		t.Fatalf("want one server in the report, got %+v", rep.Servers)
	}
	s := rep.Servers[0]
	if s.Transport != transport || s.ProtocolVersion != version || s.ServerName != serverName {
		t.Errorf("server record = %+v; want transport %q, protocol %s, server %q", s, transport, version, serverName)
	}
}

// TestServerFeaturesDemo runs the demo's suite over every transport: over
// Streamable HTTP, mcp-go's server sends progress, logs and elicitation on
// the call's own stream and sampling, roots and the late resource updates
// on the GET stream; over SSE everything comes on the one stream.
func TestServerFeaturesDemo(t *testing.T) {
	cases := []struct {
		name, transport, version string
		args                     func(t *testing.T) []string
	}{
		{"stdio", "stdio", "2025-11-25", func(*testing.T) []string { return nil }},
		{"streamable", "streamable", "2025-11-25", func(t *testing.T) []string {
			return []string{"--server-url", "demo=" + startDemoMode(t, "--http")}
		}},
		{"sse", "sse", "2024-11-05", func(t *testing.T) []string {
			return []string{"--target-version", "2024-11-05", "--server-url", "demo=" + startDemoMode(t, "--sse")}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, rep := runFeatures(t, append(c.args(t), demoFeatures(t))...)
			wantAllPassed(t, r, rep, demoFeaturesTests)
			wantTransport(t, rep, c.transport, c.version, "mcptest-demo")
		})
	}
}

// TestServerFeaturesDemoModern runs the same suite in the stateless era
// (2026-07-28), where the mechanisms differ: the mocks answer input
// requests (MRTR) instead of server requests, a call asks for its log
// level in _meta instead of logging/setLevel, and subscriptions/listen
// replaces resources/subscribe. The one test that pins the legacy
// envelope (no resultType, no _meta) is left out; over HTTP the demo
// gives each request a session of its own, so its counter updates reach
// only stdio listeners and the subscription tests are left out there.
func TestServerFeaturesDemoModern(t *testing.T) {
	const legacyEnvelope = "a test that opts in to nothing keeps its envelope"
	t.Run("stdio", func(t *testing.T) {
		r, rep := runFeatures(t, "--target-version", "2026-07-28", "--exclude", legacyEnvelope, demoFeatures(t))
		wantAllPassed(t, r, rep, demoFeaturesTests-1)
		wantTransport(t, rep, "stdio", "2026-07-28", "mcptest-demo")
	})
	t.Run("streamable", func(t *testing.T) {
		r, rep := runFeatures(t, "--target-version", "2026-07-28", "--exclude", legacyEnvelope, "--exclude", "updates*",
			"--server-url", "demo="+startDemoMode(t, "--http"), demoFeatures(t))
		wantAllPassed(t, r, rep, demoFeaturesTests-3)
		wantTransport(t, rep, "streamable", "2026-07-28", "mcptest-demo")
	})
}

// runFeatures runs `mcptest run` with a pretty and a json report. The
// processes mcptest starts must be gone when it exits; a URL server the
// test started itself lives on until the test ends.
func runFeatures(t *testing.T, args ...string) (result, interopReport) {
	t.Helper()
	jsonPath := filepath.Join(t.TempDir(), "report.json")
	r := mcptest(t, append([]string{"run", "--no-color", "--no-cache", "--reporter", "pretty", "--reporter", "json=" + jsonPath}, args...)...)
	if !slices.Contains(args, "--server-url") {
		assertNoOrphans(t)
	}
	var rep interopReport
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatalf("no json report: %v\n%s", err, r)
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("json report: %v\n%s", err, raw)
	}
	return r, rep
}

// featureReport is the part of the json report the failure test reads.
type featureReport struct {
	Tests []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Error  *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
		Response json.RawMessage   `json:"response"`
		Frames   []json.RawMessage `json:"frames"`
	} `json:"tests"`
}

// TestServerFeaturesFailures: what goes wrong fails or errors the right
// test with a message that says why, and the report shows the traffic.
func TestServerFeaturesFailures(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
  chaos:
    command: ["`+chaosServer+`"]
tools:
  - name: wrong progress count
    server: demo
    tool: progress
    args: {steps: 3, non_monotonic: true}
    progress: true
    expect:
      - target: progress.count
        matcher: {exact: 5}
      - target: progress.monotonic
        matcher: {exact: true}
  - name: no progress without a token
    server: demo
    tool: progress
    args: {steps: 3}
    client: {}
    expect:
      - target: notifications
        matcher: {exact: []}
      - target: result.content[0].text
        matcher: {exact: "no progress token, no progress sent"}
  - name: sampling the client does not offer
    server: demo
    tool: sample
    args: {prompt: hi}
    expect:
      - target: result.isError
        matcher: {exact: true}
      - target: server_requests[0].response.error.code
        matcher: {exact: -32601}
  - name: a mock answer the test did not expect
    server: demo
    tool: elicit
    client:
      elicitation: {action: cancel}
    expect:
      - target: result.structuredContent.action
        matcher: {exact: accept}
  - name: logging the server does not offer
    server: chaos
    tool: echo
    args: {message: x}
    log_level: debug
resources:
  - name: subscribing where the server does not offer it
    server: chaos
    uri: "x://y"
    subscribe: {}
  - name: too few updates
    server: demo
    uri: "demo://counter"
    subscribe: {trigger: {tool: bump, args: {times: 1}}, wait_ms: 300, min_updates: 2}
`)
	jsonPath := filepath.Join(t.TempDir(), "report.json")
	r := mcptest(t, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+jsonPath, suite)
	if r.code != 2 { // errored tests make exit code 2
		t.Fatalf("want exit 2:\n%s", r)
	}
	assertNoOrphans(t)
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep featureReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tr := range rep.Tests {
		v := tr.Status
		if tr.Error != nil {
			v += " " + tr.Error.Kind + ": " + tr.Error.Message
		}
		got[tr.Name] = v
		if tr.Name == "wrong progress count" {
			// The failure shows the envelope and the wire, notifications
			// included.
			mustContain(t, "response", compact(t, tr.Response), `"progress":{"count":4,"monotonic":false`, `"notifications":[{"method":"notifications/progress"`)
			var frames []string
			for _, f := range tr.Frames {
				frames = append(frames, compact(t, f))
			}
			mustContain(t, "frames", strings.Join(frames, "\n"), `"_meta":{"progressToken":"mcptest-`, `"method":"notifications/progress"`)
		}
	}
	want := map[string]string{
		"wrong progress count":                           "failed",
		"no progress without a token":                    "passed",
		"sampling the client does not offer":             "passed",
		"a mock answer the test did not expect":          "failed",
		"logging the server does not offer":              `errored capability: server "chaos" does not declare the logging capability, which log_level needs (it declared: {"tools":{}})`,
		"subscribing where the server does not offer it": `errored capability: server "chaos" does not declare the resources.subscribe capability, which subscribe needs (it declared: {"tools":{}})`,
		"too few updates":                                "failed subscribe: waited 300 ms for 2 notifications/resources/updated for demo://counter, got 1; the server sent notifications/resources/updated {\"uri\":\"demo://counter\"}",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], w)
		}
	}
	mustContain(t, "stdout", r.stdout, "expected: 5", "actual:   4", `"action":"cancel"`, "2 passed, 3 failed, 2 errored")
}

// TestServerFeaturesEverything runs the features suite against
// server-everything over stdio, Streamable HTTP and legacy HTTP+SSE.
func TestServerFeaturesEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	cases := []struct {
		name, transport, version string
		args                     func(t *testing.T) []string
	}{
		{"stdio", "stdio", "2025-11-25", func(*testing.T) []string { return nil }},
		{"streamable", "streamable", "2025-11-25", func(t *testing.T) []string {
			port := startHTTPServer(t, entry, "streamableHttp")
			return []string{"--server-url", fmt.Sprintf("everything=http://127.0.0.1:%d/mcp", port)}
		}},
		{"sse", "sse", "2024-11-05", func(t *testing.T) []string {
			port := startHTTPServer(t, entry, "sse")
			return []string{"--target-version", "2024-11-05", "--server-url", fmt.Sprintf("everything=http://127.0.0.1:%d/sse", port)}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, rep := runInterop(t, nil, append(c.args(t), everythingFeaturesSuite)...)
			wantAllPassed(t, r, rep, everythingFeaturesTests)
			wantTransport(t, rep, c.transport, c.version, "mcp-servers/everything")
		})
	}
}

// compact removes the report's indentation from a JSON value.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}
