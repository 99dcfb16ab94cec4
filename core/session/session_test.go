//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/testbin"
)

// demoBin(t) returns the demo server and chaosBin(t) the misbehaving one, each
// built once for the package's tests; in -short mode they skip the test
// instead (testbin), since building is the slow part.
func demoBin(t testing.TB) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/demo")
}

func chaosBin(t testing.TB) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/chaos")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// startDemo starts the demo server and closes it when the test ends.
func startDemo(t *testing.T, mutate ...func(*StdioConfig)) *Session {
	t.Helper()
	cfg := StdioConfig{Name: "demo", Command: []string{demoBin(t)}, InitTimeout: 10 * time.Second}
	for _, f := range mutate {
		f(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	s, err := StartStdio(ctx, cfg)
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

// callTool calls a tool with a 10 s deadline and fails the test on a transport error.
func callTool(t *testing.T, s *Session, name, args string) *Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.CallTool(ctx, name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return out
}

// toolText decodes a tool result and returns its first text block.
func toolText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode result %s: %v", raw, err)
	}
	if len(r.Content) == 0 {
		t.Fatalf("result has no content: %s", raw)
	}
	return r.Content[0].Text
}

func TestStructuredContent(t *testing.T) {
	s := startDemo(t)
	out := callTool(t, s, "add", `{"a":2,"b":3}`)
	var r struct {
		StructuredContent map[string]json.Number `json:"structuredContent"`
	}
	if err := json.Unmarshal(out.Result, &r); err != nil {
		t.Fatal(err)
	}
	if got := r.StructuredContent["sum"]; got != "5" {
		t.Fatalf("structuredContent.sum = %q in %s", got, out.Result)
	}
	if got := toolText(t, out.Result); got != "5" {
		t.Fatalf("text = %q", got)
	}
}

func TestToolErrorIsAnOutcome(t *testing.T) {
	s := startDemo(t)
	out := callTool(t, s, "fail", "")
	if out.RPCError != nil {
		t.Fatalf("isError result reported as JSON-RPC error: %+v", out.RPCError)
	}
	if !out.IsError() {
		t.Fatalf("IsError() = false for %s", out.Result)
	}
	if got := toolText(t, out.Result); got != "something went wrong" {
		t.Fatalf("text = %q", got)
	}
	// Empty arguments go out as {}, never null.
	if !strings.Contains(out.Frames[0].Raw, `"arguments":{}`) {
		t.Fatalf("request frame %s lacks empty arguments object", out.Frames[0].Raw)
	}
}

func TestNullArgumentsSentAsObject(t *testing.T) {
	s := startDemo(t)
	for _, args := range []string{"", "null", "  null  "} {
		out := callTool(t, s, "greet", args)
		if !strings.Contains(out.Frames[0].Raw, `"arguments":{}`) {
			t.Fatalf("args %q: request frame %s", args, out.Frames[0].Raw)
		}
	}
	out := callTool(t, s, "greet", `{"name":"Ada"}`)
	if got := toolText(t, out.Result); got != "Hello, Ada!" {
		t.Fatalf("greet = %q", got)
	}
	if _, err := s.CallTool(context.Background(), "greet", json.RawMessage(`{"name":`)); err == nil {
		t.Fatal("invalid JSON arguments were accepted")
	}
}

func TestUnknownToolIsRPCError(t *testing.T) {
	s := startDemo(t)
	out := callTool(t, s, "no_such_tool", `{}`)
	if out.RPCError == nil {
		t.Fatalf("no RPC error; result %s", out.Result)
	}
	if out.RPCError.Code != -32602 {
		t.Fatalf("code = %d (%s), want -32602", out.RPCError.Code, out.RPCError.Message)
	}
	if out.Result != nil {
		t.Fatalf("Result = %s, want nil", out.Result)
	}
	if !strings.Contains(out.RPCError.Error(), "-32602") {
		t.Fatalf("Error() = %s", out.RPCError.Error())
	}
}

func TestRequestOtherMethods(t *testing.T) {
	s := startDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.Request(ctx, "resources/read", json.RawMessage(`{"uri":"demo://items/7"}`))
	if err != nil || out.RPCError != nil {
		t.Fatalf("resources/read: %v %+v", err, out)
	}
	if !strings.Contains(string(out.Result), `item 7`) {
		t.Fatalf("resources/read result %s", out.Result)
	}
	out, err = s.Request(ctx, "tools/list", nil)
	if err != nil || out.RPCError != nil {
		t.Fatalf("tools/list: %v %+v", err, out)
	}
	if strings.Contains(out.Frames[0].Raw, `"params"`) {
		t.Fatalf("nil params were sent: %s", out.Frames[0].Raw)
	}
	for _, tool := range []string{"echo", "add", "greet", "fail", "slow", "json_blob", "crash", "stderr_noise"} {
		if !strings.Contains(string(out.Result), `"name":"`+tool+`"`) {
			t.Errorf("tools/list lacks %s", tool)
		}
	}
	out, err = s.Request(ctx, "prompts/get", json.RawMessage(`{"name":"review_code","arguments":{"code":"x := 1"}}`))
	if err != nil || out.RPCError != nil || !strings.Contains(string(out.Result), "x := 1") {
		t.Fatalf("prompts/get: %v %+v", err, out)
	}
}

func TestPinnedProtocolVersion(t *testing.T) {
	s := startDemo(t, func(c *StdioConfig) { c.ProtocolVersion = "2025-03-26" })
	if got := s.ProtocolVersion(); got != "2025-03-26" {
		t.Fatalf("ProtocolVersion = %q, want 2025-03-26", got)
	}
	_, err := StartStdio(context.Background(), StdioConfig{Command: []string{demoBin(t)}, ProtocolVersion: "2030-01-01"})
	if err == nil || !strings.Contains(err.Error(), `protocol version "2030-01-01" is not supported`) {
		t.Fatalf("unknown revision accepted or unclear error: %v", err)
	}
}

func TestStderrTail(t *testing.T) {
	s := startDemo(t)
	if got := toolText(t, callTool(t, s, "stderr_noise", "").Result); got != "ok" {
		t.Fatalf("stderr_noise = %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.StderrTail(5), "demo: some noise on stderr") {
		if time.Now().After(deadline) {
			t.Fatalf("stderr tail = %q", s.StderrTail(5))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	script, err := filepath.Abs("testdata/env.sh")
	if err != nil {
		t.Fatal(err)
	}
	_, err = StartStdio(context.Background(), StdioConfig{
		Name:        "env",
		Command:     []string{"sh", script},
		Env:         map[string]string{"MCPTEST_FOO": "bar baz"},
		Dir:         dir,
		InitTimeout: 5 * time.Second,
	})
	var exit *ServerExitError
	if !errors.As(err, &exit) {
		t.Fatalf("err = %v, want *ServerExitError", err)
	}
	want := "MCPTEST_FOO=bar baz dir=" + dir
	if !strings.Contains(exit.StderrTail, want) {
		t.Fatalf("stderr tail %q lacks %q", exit.StderrTail, want)
	}
}

func TestOwnProcessGroup(t *testing.T) {
	s := startDemo(t)
	pgid, err := syscall.Getpgid(s.PID())
	if err != nil {
		t.Fatal(err)
	}
	if pgid != s.PID() {
		t.Fatalf("server pgid = %d, want its own pid %d", pgid, s.PID())
	}
}
