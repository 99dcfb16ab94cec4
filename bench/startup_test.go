package bench

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// helloSource is the floor program: a Go hello world.
const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello") }
`

// handshakeWait bounds the wait for a plugin's handshake line.
const handshakeWait = 10 * time.Second

// BenchmarkStartup measures what a process of ours costs before it does
// anything: `mcptest version` from exec to exit, and the text matcher and
// json reporter plugins (the ones a default run launches) from exec to
// their go-plugin handshake line. The floor is a Go hello world built in
// the same run, with the same toolchain and the flags `make build` uses,
// from exec to exit. Everything before main (package inits, the runtime's
// start, dynamic loading) shows up here.
//
// Each op runs all four, in a rotating order so drift in machine load hits
// them alike; the metrics are medians over the ops.
func BenchmarkStartup(b *testing.B) {
	bins := builtBinaries(b)
	hello := buildHello(b)
	pluginDir := filepath.Join(filepath.Dir(bins.mcptest), "mcptest-plugins")
	text := filepath.Join(pluginDir, "text", "mcptest-plugin-text")
	jsonRep := filepath.Join(pluginDir, "json", "mcptest-plugin-json")
	sockets := b.TempDir()

	runs := []func() time.Duration{
		func() time.Duration { return timedRun(b, hello) },
		func() time.Duration { return timedRun(b, bins.mcptest, "version") },
		func() time.Duration { return timedHandshake(b, text, sockets) },
		func() time.Duration { return timedHandshake(b, jsonRep, sockets) },
	}
	// One untimed round, so first-exec and page-cache costs are charged to
	// nobody.
	for _, r := range runs {
		r()
	}
	samples := make([][]time.Duration, len(runs))
	b.ResetTimer()
	for i := range b.N {
		for k := range runs {
			j := (i + k) % len(runs)
			samples[j] = append(samples[j], runs[j]())
		}
	}
	b.StopTimer()
	floor, version, textHS, jsonHS := median(samples[0]), median(samples[1]), median(samples[2]), median(samples[3])
	b.ReportMetric(ms(floor), "ms-floor")
	b.ReportMetric(ms(version), "ms-version")
	b.ReportMetric(ms(version-floor), "ms-version-over")
	b.ReportMetric(ms(textHS), "ms-text-handshake")
	b.ReportMetric(ms(textHS-floor), "ms-text-over")
	b.ReportMetric(ms(jsonHS), "ms-json-handshake")
	b.ReportMetric(ms(jsonHS-floor), "ms-json-over")
}

// buildHello builds the floor program into a temporary folder as `make
// build` builds ours (plugins/internal/bundle: -trimpath, -s -w, cgo off).
func buildHello(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	for name, body := range map[string]string{"main.go": helloSource, "go.mod": "module hello\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", exe, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build the hello-world floor: %v\n%s", err, out)
	}
	return exe
}

// timedRun runs exe to its end and fails the benchmark unless it exits 0
// having printed something.
func timedRun(b *testing.B, exe string, args ...string) time.Duration {
	start := time.Now()
	out, err := exec.Command(exe, args...).Output()
	d := time.Since(start)
	if err != nil || len(out) == 0 {
		b.Fatalf("%s %s: %v (output %q)", exe, strings.Join(args, " "), err, out)
	}
	return d
}

// timedHandshake starts a plugin as mcptest would (magic cookie, protocol
// versions) and times it until its go-plugin handshake line, which it
// prints once its gRPC server listens; then it kills and reaps it.
func timedHandshake(b *testing.B, exe, socketDir string) time.Duration {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(),
		pluginrpc.Handshake.MagicCookieKey+"="+pluginrpc.Handshake.MagicCookieValue,
		"PLUGIN_PROTOCOL_VERSIONS=1",
		"PLUGIN_UNIX_SOCKET_DIR="+socketDir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatalf("start %s: %v", exe, err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		d := time.Since(start)
		// core-version|app-version|network|address|protocol
		if f := strings.Split(strings.TrimSpace(s), "|"); len(f) < 5 || f[4] != "grpc" {
			b.Fatalf("%s: not a go-plugin handshake line: %q", exe, s)
		}
		return d
	case <-time.After(handshakeWait):
		b.Fatal(errors.New(exe + ": no handshake line within " + handshakeWait.String()))
		return 0
	}
}

// median is the middle of ds (the mean of the middle two for an even
// count).
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
