//go:build unix

package cassette

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/servertest"
	"github.com/mcptest/mcptest/internal/testbin"
)

// demoBin returns the demo server (the recordings are made from a real
// server), built once for the package's tests; in -short mode it skips t
// instead (testbin).
func demoBin(t testing.TB) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/demo")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// startDemo starts the demo server over stdio and closes it when the test
// ends.
func startDemo(t *testing.T, mutate ...func(*session.StdioConfig)) *session.Session {
	t.Helper()
	cfg := session.StdioConfig{Name: "demo", Command: []string{demoBin(t)}, InitTimeout: 10 * time.Second}
	for _, f := range mutate {
		f(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	s, err := session.StartStdio(ctx, cfg)
	if err != nil {
		t.Fatalf("StartStdio: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// startDemoURL starts the demo server with mode ("--http" or "--sse") on a
// free loopback port and returns its URL; it is killed when the test ends.
func startDemoURL(t *testing.T, mode string) (u string, kill func()) {
	t.Helper()
	return servertest.StartURL(t, demoBin(t), nil, mode, "127.0.0.1:0")
}

// startURLSession starts a URL session and closes it when the test ends.
func startURLSession(t *testing.T, cfg session.HTTPConfig) *session.Session {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "demo"
	}
	if cfg.InitTimeout == 0 {
		cfg.InitTimeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	s, err := session.StartHTTP(ctx, cfg)
	if err != nil {
		t.Fatalf("StartHTTP: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}
