//go:build unix

package run_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// With Options.Stopping, Execute returns the complete report (the
// server's record included) and leaves the server's shutdown to the
// background, counted in the WaitGroup: once it is done, the server
// process is gone (reaped, not a zombie left to the orphan sweep).
func TestExecuteStopsServersInTheBackground(t *testing.T) {
	// The wrapper writes its pid ($$, written $$$$ since the suite format
	// reads $$ as an escaped $) and execs the demo server in its place.
	pidFile := filepath.Join(t.TempDir(), "pid")
	p, h := setup(t, `
servers:
  demo:
    command: ["sh", "-c", "echo $$$$ > `+pidFile+`; exec DEMO"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - target: result.content[0].text
        matcher: {eq: "hi"}
`)
	var stopping sync.WaitGroup
	res := run.Execute(context.Background(), p, run.Options{Host: h, Stopping: &stopping})
	if len(res.Tests) != 1 || res.Tests[0].Status != rpt.StatusPassed {
		t.Fatalf("tests: %+v", res.Tests)
	}
	if len(res.Servers) != 1 || res.Servers[0].ServerName != "mcptest-demo" {
		t.Fatalf("servers: %+v, want the demo server's record", res.Servers)
	}
	stopping.Wait()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the server (pid %d) is still there after the shutdown: kill 0 says %v", pid, err)
	}
}
