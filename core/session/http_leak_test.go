//go:build unix

package session

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestURLSessionsLeakNoGoroutines runs both HTTP transports through calls,
// a timeout, a server-to-client request and Close, and checks that every
// goroutine they started is gone.
func TestURLSessionsLeakNoGoroutines(t *testing.T) {
	httpURL, _ := startDemoURL(t, "--http")
	sseURL, _ := startDemoURL(t, "--sse")
	inproc, gets := newInProcServer(t)
	cfgs := []HTTPConfig{
		{URL: httpURL},
		{URL: sseURL, Transport: TransportSSE},
		{URL: inproc},
	}
	// Warm up the test servers and the runtime's own goroutines.
	for _, cfg := range cfgs {
		s, err := StartHTTP(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
	}
	time.Sleep(100 * time.Millisecond)
	before := runtime.NumGoroutine()
	for i := range 2 {
		for _, cfg := range cfgs {
			opened := gets.Load()
			s, err := StartHTTP(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.URL == inproc {
				waitFor(t, 5*time.Second, "GET stream", func() bool { return gets.Load() > opened })
				callTool(t, s, "progress", `{}`)
				callTool(t, s, "roots", `{}`)
			} else {
				callTool(t, s, "echo", `{"message":"x"}`)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				_, _ = s.CallTool(ctx, "slow", json.RawMessage(`{"ms":1000}`))
				cancel()
			}
			if i == 1 {
				// Close with a call in flight.
				go func() { _, _ = s.CallTool(context.Background(), "slow", json.RawMessage(`{"ms":1000}`)) }()
				time.Sleep(20 * time.Millisecond)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Test servers keep a few goroutines per connection for a moment, and
	// a loaded machine may take seconds to run the ones that are ending: a
	// leak never ends, so a generous wait costs nothing when all is well.
	const slack = 4
	deadline := time.Now().Add(15 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		leaked := sessionStacks(stacks)
		if runtime.NumGoroutine() <= before+slack && leaked == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after; session goroutines:\n%s", before, runtime.NumGoroutine(), leaked)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sessionStacks returns the goroutine stacks that run this package's
// session code (not its tests) or mcp-go's client.
func sessionStacks(all string) string {
	var out []string
	for _, g := range strings.Split(all, "\n\n") {
		if strings.Contains(g, "session.TestURLSessionsLeakNoGoroutines") {
			continue
		}
		if strings.Contains(g, "core/session.(*") || strings.Contains(g, "mcp-go/client") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

func TestHTTPOversizedMessages(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u, MaxMessageBytes: 64 << 10})
	big := strings.Repeat("x", 100<<10)
	args, _ := json.Marshal(map[string]string{"message": big})
	if _, err := s.CallTool(context.Background(), "echo", args); !isErr(err, ErrBadResponse) {
		t.Fatalf("oversized JSON body: %v", err)
	}
	callTool(t, s, "echo", `{"message":"small"}`)

	sseURL, _ := startDemoURL(t, "--sse")
	s = startURLSession(t, HTTPConfig{URL: sseURL, Transport: TransportSSE, MaxMessageBytes: 64 << 10})
	_, err := s.CallTool(context.Background(), "echo", args)
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("oversized SSE event: %v", err)
	}
}
