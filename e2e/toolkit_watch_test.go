package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitForOutput polls out until it holds n occurrences of want, or fails the
// test after a minute.
func waitForOutput(t *testing.T, out *syncBuffer, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for strings.Count(out.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("no %d× %q within a minute:\n%s", n, want, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWatch starts `mcptest watch` on two suites, edits the mock manifest
// only the first one's server reads, and checks that exactly that suite
// runs again (and now fails), then edits the second suite itself; Ctrl-C
// stops the watcher with 130 and no server left behind.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "mock.yml")
	if err := os.WriteFile(manifest, []byte("tools:\n  - name: hi\n    result: {text: hello}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mockSuite := filepath.Join(dir, "mock-suite.yml")
	if err := os.WriteFile(mockSuite, []byte(`servers:
  m:
    command: ["`+filepath.Join(binDir, "mcptest")+`", "mock", "`+manifest+`"]
tools:
  - name: hi says hello
    server: m
    tool: hi
    expect:
      - {target: "result.content[0].text", matcher: {exact: hello}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	demoSuite := filepath.Join(dir, "demo-suite.yml")
	demo := `servers:
  demo:
    command: ["` + filepath.Join(binDir, "mcptest-demo-server") + `"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: hi}
`
	if err := os.WriteFile(demoSuite, []byte(demo), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "mcptest"), "watch", "--settle", "100ms", mockSuite, demoSuite, "--", "--no-color")
	cmd.Dir = root
	cmd.Env = cleanEnv()
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
	})
	waitForOutput(t, &out, "waiting for changes", 1)
	mustContain(t, "first run", out.String(), "running "+mockSuite+" "+demoSuite, "2 passed")

	if err := os.WriteFile(manifest, []byte("tools:\n  - name: hi\n    result: {text: changed}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitForOutput(t, &out, "waiting for changes", 2)
	second := out.String()[strings.LastIndex(out.String(), "watch: running"):]
	if !strings.HasPrefix(second, "watch: running "+mockSuite+"\n") {
		t.Errorf("only the suite whose server's manifest changed should re-run:\n%s", second)
	}
	mustContain(t, "second run", second, `actual:   "changed"`, "exit 1")

	if err := os.WriteFile(demoSuite, []byte(demo+"  - name: echo again\n    server: demo\n    tool: echo\n    args: {message: again}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitForOutput(t, &out, "waiting for changes", 3)
	third := out.String()[strings.LastIndex(out.String(), "watch: running"):]
	if !strings.HasPrefix(third, "watch: running "+demoSuite+"\n") {
		t.Errorf("only the edited suite should re-run:\n%s", third)
	}
	mustContain(t, "third run", third, "2 passed", "exit 0")

	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("watch did not stop on SIGINT:\n%s", out.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("watch stopped by Ctrl-C exits %d, want 130", code)
	}
}
