package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcptest/mcptest/internal/testbin"
)

const demoPkg = "github.com/mcptest/mcptest/examples/servers/demo"

// TestStartDelayStillServes: a client that writes initialize while the
// server is still in its start delay gets its answer once the delay is
// over (the request waits in the pipe, as it would behind a slow runtime).
func TestStartDelayStillServes(t *testing.T) {
	bin := testbin.Build(t, demoPkg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.NewClient(transport.NewStdio(bin, nil, "--start-delay", "50ms"))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "demo-test", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("initialize through the start delay: %v", err)
	}
	if res.ServerInfo.Name != serverName {
		t.Fatalf("server info = %+v", res.ServerInfo)
	}
}

// TestStartDelayRejectsNegative: a negative delay is a usage error (exit
// 2) that names the flag, not a silent start.
func TestStartDelayRejectsNegative(t *testing.T) {
	bin := testbin.Build(t, demoPkg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--start-delay", "-1s").CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit = %v, want 2; output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "--start-delay") {
		t.Fatalf("the error does not name the flag:\n%s", out)
	}
}
