package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/servertest"
)

// demoBin is the demo server, built once for the package's tests.
var demoBin string

// repoRoot is the repository root.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "compliance-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		demoBin = filepath.Join(dir, "demo")
		build := exec.Command("go", "build", "-o", demoBin, "./examples/servers/demo")
		build.Dir = repoRoot()
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build demo: %v\n%s", err, out)
			return 1
		}
		if err := buildFakes(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	}()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runChecks runs checks against a target and indexes the results by id.
func runChecks(t *testing.T, target Target, opts Options) map[string]*Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
	}
	rep, err := Run(ctx, target, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Err != nil {
		t.Fatalf("server not initialised: %v", rep.Err)
	}
	out := map[string]*Result{}
	for _, r := range rep.Results {
		out[r.Check.ID] = r
	}
	return out
}

// summary renders results for a failure message.
func summary(rs map[string]*Result) string {
	var b strings.Builder
	for _, c := range All() {
		r, ok := rs[c.ID]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "%s %-14s %s\n", c.ID, r.Status, r.Message)
		if r.Status == Fail || r.Status == Warn || r.Status == Errored {
			for _, f := range r.Findings {
				if f.Status != Pass {
					fmt.Fprintf(&b, "      %s %s: expected %v, got %s (%s)\n", f.Status, f.Name, f.Expected, show(f.Actual), f.Note)
				}
			}
		}
	}
	return b.String()
}

// startDemoHTTP starts the demo server on Streamable HTTP and returns its
// endpoint URL; the server is stopped when the test ends.
func startDemoHTTP(t *testing.T) string {
	t.Helper()
	return startServer(t, demoBin, nil, "--http", "127.0.0.1:0")
}

// startServer starts an HTTP server binary that prints its URL to stderr.
func startServer(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	u, _ := servertest.StartURL(t, bin, env, args...)
	return u
}

func show(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		return string(raw)
	}
	return fmt.Sprint(v)
}
