package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// complianceServer is one interop server the compliance budget is
// measured against: a stdio command, or an HTTP server to start first.
type complianceServer struct {
	name string
	// command is the server's command line (stdio), or the command that
	// serves HTTP on the port in $PORT (http).
	command []string
	http    bool
}

// BenchmarkCompliance measures `mcptest compliance run` against every
// interop server (DESIGN.md: at most 4 s each). Next to it, as the floor,
// it times the least any client pays to talk to the same server: start it
// (stdio) and have one initialize answered. The checks need many server
// processes over stdio, so the ratio says how much of the run is server
// starts rather than waiting.
//
// A server that is not installed (.ci/run installs them) skips its
// sub-benchmark. Each op runs both commands, alternating which goes first.
func BenchmarkCompliance(b *testing.B) {
	// server-everything's gzip tool downloads a GitHub URL when called
	// without data; the servers inherit this and refuse any host.
	b.Setenv("GZIP_ALLOWED_DOMAINS", "mcptest.invalid")
	bins := builtBinaries(b)
	root := moduleRoot(b)
	npm := filepath.Join(root, ".ci", "npm", "node_modules", "@modelcontextprotocol")
	fsRoot := b.TempDir()
	if err := os.WriteFile(filepath.Join(fsRoot, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	servers := []complianceServer{
		{name: "everything-stdio", command: []string{"node", filepath.Join(npm, "server-everything", "dist", "index.js"), "stdio"}},
		{name: "filesystem-stdio", command: []string{"node", filepath.Join(npm, "server-filesystem", "dist", "index.js"), fsRoot}},
		{name: "memory-stdio", command: []string{"node", filepath.Join(npm, "server-memory", "dist", "index.js")}},
		{name: "everything-http", command: []string{"node", filepath.Join(npm, "server-everything", "dist", "index.js"), "streamableHttp"}, http: true},
		{name: "mcp-go-everything", command: goExample(b, "github.com/mark3labs/mcp-go/examples/everything@v1.2.1")},
		{name: "go-sdk-everything", command: goExample(b, "github.com/modelcontextprotocol/go-sdk/examples/server/everything@v1.8.0")},
	}
	for _, srv := range servers {
		b.Run(srv.name, func(b *testing.B) {
			if len(srv.command) == 0 {
				b.Skip("not in the Go module cache (.ci/run fetches it)")
			}
			if srv.command[0] == "node" {
				if _, err := os.Stat(srv.command[1]); err != nil {
					b.Skipf("%s is missing; run npm install --prefix .ci/npm", srv.command[1])
				}
			}
			target := strings.Join(srv.command, " ")
			if srv.http {
				target = startHTTP(b, srv.command)
			}
			dir := b.TempDir()
			// One untimed round of each warms the page cache.
			complianceFloor(b, srv, target)
			runCompliance(b, bins, dir, target)
			var run, floor time.Duration
			errored := 0
			b.ResetTimer()
			for i := range b.N {
				r := func() { errored += runCompliance(b, bins, dir, target) }
				f := func() { complianceFloor(b, srv, target) }
				if i%2 == 0 {
					floor += timed(f)
					run += timed(r)
				} else {
					run += timed(r)
					floor += timed(f)
				}
			}
			n := float64(b.N)
			b.ReportMetric(ms(run)/n, "ms-run")
			b.ReportMetric(ms(floor)/n, "ms-floor")
			b.ReportMetric(float64(run)/float64(floor), "x-floor")
			// Errored checks mean the machine was too loaded for the
			// waits; the table shows them so a fast but broken run is not
			// mistaken for a good one.
			b.ReportMetric(float64(errored)/n, "errored")
		})
	}
}

// runCompliance runs every check against target and returns how many
// checks errored. Exit 0 and 1 are verdicts; 2 is accepted only with its
// errored checks counted, as a loaded machine can make a server miss a
// wait.
func runCompliance(b *testing.B, bins binaries, dir, target string) int {
	out := filepath.Join(dir, "compliance.json")
	cmd := exec.Command(bins.mcptest, "compliance", "run", "--server", target, "--reporter", "json", "-o", out)
	cmd.Dir = dir
	log, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() > 2) {
		b.Fatalf("mcptest compliance run --server %s: %v\n%s", target, err, log)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		b.Fatalf("no report from mcptest compliance run --server %s: %v\n%s", target, err, log)
	}
	var rep struct {
		Summary struct {
			Errored int `json:"errored"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		b.Fatalf("compliance report: %v", err)
	}
	return rep.Summary.Errored
}

// complianceFloor is the floor: start the server (stdio) and have one
// initialize answered, with nothing but the raw transport.
func complianceFloor(b *testing.B, srv complianceServer, target string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	init := probe.Request(1, "initialize", probe.InitializeParams(protocolVersion, nil, "bench"))
	if srv.http {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatalf("initialize %s: %v", target, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("initialize %s: HTTP %d", target, resp.StatusCode)
		}
		// The answer may be an SSE stream: read up to the first event.
		buf := make([]byte, 4096)
		_, _ = resp.Body.Read(buf)
		return
	}
	p, err := probe.StartStdio(ctx, probe.StdioOptions{Command: srv.command})
	if err != nil {
		b.Fatalf("start %s: %v", target, err)
	}
	defer p.Close()
	if err := p.WriteLine(init, 10*time.Second); err != nil {
		b.Fatalf("initialize %s: %v", target, err)
	}
	for {
		l, err := p.Next(20 * time.Second)
		if err != nil {
			b.Fatalf("initialize %s: %v", target, err)
		}
		if m, err := probe.Parse(l.Data); err == nil && m.HasID(1) {
			return
		}
	}
}

// startHTTP starts command with a free port in $PORT, waits until it
// listens, stops it when the benchmark ends, and returns its MCP URL.
func startHTTP(b *testing.B, command []string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	b.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	// Readiness is polled by connecting: the servers print nothing a
	// benchmark could rely on when the port opens. Exit is an event
	// (exited) and ends the wait.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		}
		select {
		case <-exited:
			b.Fatalf("%v exited before listening", command)
		default:
		}
		if time.Now().After(deadline) {
			b.Fatalf("%v did not listen on %d within 30 s", command, port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// goExample installs a Go SDK example server from the module cache, offline
// (.ci/run fetched it), and returns its command line, or nil when the
// module is not there.
func goExample(b *testing.B, pkg string) []string {
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil
	}
	// go build takes no pkg@version; go install does, into GOBIN.
	gobin := b.TempDir()
	cmd := exec.Command("go", "install", pkg)
	cmd.Dir = b.TempDir()
	cmd.Env = append(os.Environ(), "GOBIN="+gobin,
		"GOPROXY=file://"+filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"),
		"GOFLAGS=-mod=mod", "GOSUMDB=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Logf("go install %s: %v\n%s", pkg, err, out)
		return nil
	}
	name := strings.SplitN(filepath.Base(pkg), "@", 2)[0]
	return []string{filepath.Join(gobin, name)}
}
