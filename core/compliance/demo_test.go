package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/servertest"
	"github.com/mcptest/mcptest/internal/testbin"
)

// demoBin(t) returns the demo server, built once for the package's tests;
// in -short mode it skips t instead (testbin).
func demoBin(t testing.TB) string {
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/demo")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
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
	return startServer(t, demoBin(t), nil, "--http", "127.0.0.1:0")
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
