package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/servertest"
)

type traceEntry struct {
	Seq     int             `json:"seq"`
	Dir     string          `json:"dir"`
	Message json.RawMessage `json:"message"`
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
}

func readTrace(t *testing.T, path string) ([]traceEntry, string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []traceEntry
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e traceEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("trace line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out, string(raw)
}

// interceptSuite calls echo with a secret in its arguments and add.
func interceptSuite(t *testing.T, server string) string {
	t.Helper()
	return writeSuite(t, `
servers:
  s:
`+server+`
tools:
  - name: echo
    server: s
    tool: echo
    args: {message: "the planted value is `+interceptSecret+`", api_key: visible-if-unmasked}
  - name: add
    server: s
    tool: add
    args: {a: 1, b: 2}
    expect:
      - {target: result.structuredContent.sum, matcher: {exact: 3}}
`)
}

const interceptSecret = "sec-5d1c-intercept"

// checkTrace: both directions recorded in order, tool calls named with
// their arguments, the api_key masked by key and the planted secret
// (from --mask-env) masked wherever it appears.
func checkTrace(t *testing.T, path string) {
	t.Helper()
	entries, raw := readTrace(t, path)
	if strings.Contains(raw, interceptSecret) || strings.Contains(raw, "visible-if-unmasked") {
		t.Errorf("the trace holds a masked value:\n%s", raw)
	}
	var tools []string
	dirs := map[string]int{}
	for i, e := range entries {
		if e.Seq != i+1 {
			t.Errorf("entry %d has seq %d", i, e.Seq)
		}
		dirs[e.Dir]++
		if e.Tool != "" {
			tools = append(tools, e.Tool)
		}
	}
	if dirs["client_to_server"] < 3 || dirs["server_to_client"] < 3 {
		t.Errorf("directions = %v", dirs)
	}
	if strings.Join(tools, ",") != "echo,add" && strings.Join(tools, ",") != "add,echo" {
		t.Errorf("tool calls = %v", tools)
	}
	mustContain(t, "trace", raw, `"api_key":"***"`, `"tool":"add","args":{"a":1,"b":2}`, `"method":"initialize"`)
}

// TestInterceptStdio puts intercept between mcptest (as the client) and
// the demo server over stdio.
func TestInterceptStdio(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	suite := interceptSuite(t, `    command: ["`+filepath.Join(binDir, "mcptest")+`", "intercept", "-o", "`+trace+`", "--mask-env", "E2E_INTERCEPT_SECRET", "--", "DEMO"]`)
	r := mcptestEnv(t, []string{"E2E_INTERCEPT_SECRET=" + interceptSecret}, "run", suite)
	if r.code != 0 {
		t.Fatalf("the suite through the proxy should pass:\n%s", r)
	}
	checkTrace(t, trace)
}

// TestInterceptHTTP proxies Streamable HTTP to the demo server.
func TestInterceptHTTP(t *testing.T) {
	upstream := startHTTPDemo(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	url, _ := servertest.StartURL(t, filepath.Join(binDir, "mcptest"), []string{"E2E_INTERCEPT_SECRET=" + interceptSecret},
		"intercept", "-o", trace, "--mask-env", "E2E_INTERCEPT_SECRET", "--listen", "127.0.0.1:0", "--upstream", upstream)
	r := mcptest(t, "run", interceptSuite(t, `    url: "`+url+`"`))
	if r.code != 0 {
		t.Fatalf("the suite through the HTTP proxy should pass:\n%s", r)
	}
	checkTrace(t, trace)
}

// TestInterceptEverything records a session with the reference
// server-everything (npm) over stdio.
func TestInterceptEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	suite := writeSuite(t, `
servers:
  everything:
    command: ["`+filepath.Join(binDir, "mcptest")+`", "intercept", "-o", "`+trace+`", "--", "node", "`+entry+`"]
tools:
  - name: echo
    server: everything
    tool: echo
    args: {message: hi}
    expect:
      - {target: "result.content[0].text", matcher: {contains: hi}}
`)
	if r := mcptest(t, "run", suite); r.code != 0 {
		t.Fatalf("server-everything through the proxy should pass:\n%s", r)
	}
	_, raw := readTrace(t, trace)
	mustContain(t, "trace", raw, `"tool":"echo","args":{"message":"hi"}`, `"dir":"server_to_client"`)
}
