//go:build unix

package session

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := range 3 {
		s, err := StartStdio(context.Background(), StdioConfig{Command: []string{demoBin(t)}})
		if err != nil {
			t.Fatal(err)
		}
		callTool(t, s, "echo", `{"message":"x"}`)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, _ = s.CallTool(ctx, "slow", json.RawMessage(`{"ms":1000}`)) // leaves a cancellation behind
		cancel()
		if i == 1 {
			_, _ = s.CallTool(context.Background(), "crash", nil)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkCallTool measures one echo round trip through a Session.
func BenchmarkCallTool(b *testing.B) {
	s, err := StartStdio(context.Background(), StdioConfig{Command: []string{demoBin(b)}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	args := json.RawMessage(`{"message":"benchmark"}`)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.CallTool(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMCPGoBaseline is the same round trip with a bare mcp-go client,
// the yardstick of the ≤ 1.3× budget in DESIGN.md.
func BenchmarkMCPGoBaseline(b *testing.B) {
	tr := transport.NewStdio(demoBin(b), nil)
	c := client.NewClient(tr, client.WithProtocolVersion(DefaultProtocolVersion))
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: DefaultProtocolVersion,
		ClientInfo:      mcp.Implementation{Name: "bench", Version: "1"},
	}}); err != nil {
		b.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"message": "benchmark"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
