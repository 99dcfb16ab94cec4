package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/servertest"
)

// TestDiscoverDemo probes the demo over Streamable HTTP and over legacy
// HTTP+SSE; each printed servers: block, completed with a test, runs green
// as a suite.
func TestDiscoverDemo(t *testing.T) {
	for _, mode := range []string{"--http", "--sse"} {
		t.Run(mode, func(t *testing.T) {
			url, _ := servertest.StartURL(t, demoServer(), nil, mode, "127.0.0.1:0")
			r := mcptest(t, "discover", "--url", url)
			if r.code != 0 {
				t.Fatalf("discover:\n%s", r)
			}
			mustContain(t, "stdout", r.stdout, "servers:\n", "url: \""+url+"\"", "discovery document: none published")
			if mode == "--http" {
				mustContain(t, "stdout", r.stdout, "Streamable HTTP", "revisions accepted: ", "2025-11-25", "  mcptest-demo:\n")
			} else {
				mustContain(t, "stdout", r.stdout, "legacy HTTP+SSE", "transport: sse")
			}
			name := "mcptest-demo"
			if mode == "--sse" {
				name = "server"
			}
			suite := r.stdout + "tools:\n  - name: echo through the discovered block\n    server: " + name +
				"\n    tool: echo\n    args: {message: hi}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: hi}\n"
			path := filepath.Join(t.TempDir(), "suite.yml")
			if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
				t.Fatal(err)
			}
			if rr := mcptest(t, "run", path); rr.code != 0 {
				t.Fatalf("the discovered block does not run:\n%s\n%s", suite, rr)
			}
		})
	}
}

// TestDiscoverEverything probes server-everything's Streamable HTTP mode.
func TestDiscoverEverything(t *testing.T) {
	port := startHTTPServer(t, npmServer(t, "server-everything"), "streamableHttp")
	r := mcptest(t, "discover", "--url", "http://127.0.0.1:"+strconv.Itoa(port)+"/mcp")
	if r.code != 0 {
		t.Fatalf("discover:\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "Streamable HTTP", "revisions accepted: ", "servers:\n")
}

// TestDiscoverNothing exits 2 when nothing answers, and for a bad URL.
func TestDiscoverNothing(t *testing.T) {
	if r := mcptest(t, "discover", "--url", "http://127.0.0.1:1/mcp", "--timeout", "2s"); r.code != 2 || !strings.Contains(r.stdout, "none answered") {
		t.Errorf("closed port:\n%s", r)
	}
	if r := mcptest(t, "discover", "--url", "ftp://x"); r.code != 2 || !strings.Contains(r.stderr, "http://") {
		t.Errorf("bad URL:\n%s", r)
	}
}
