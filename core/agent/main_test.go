package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/sdk"
)

// demo is the path of the demo MCP server built for the tests.
var demo string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agent-test-")
	if err != nil {
		panic(err)
	}
	demo = filepath.Join(dir, "demo")
	if out, err := exec.Command("go", "build", "-o", demo, "../../examples/servers/demo").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build demo server: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// demoTools starts one demo server per name and serves their tools.
func demoTools(t *testing.T, names ...string) *SessionTools {
	t.Helper()
	st := &SessionTools{Order: names, Sessions: map[string]*session.Session{}}
	for _, n := range names {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		sess, err := session.StartStdio(ctx, session.StdioConfig{Name: n, Command: []string{demo}})
		cancel()
		if err != nil {
			t.Fatalf("start demo server %s: %v", n, err)
		}
		t.Cleanup(func() { _ = sess.Close() })
		st.Sessions[n] = sess
	}
	return st
}

// scripted is a Model whose answers a function of the request decides;
// it records the requests it saw.
type scripted struct {
	mu    sync.Mutex
	reqs  []sdk.ChatRequest
	reply func(n int, req sdk.ChatRequest) (sdk.ChatResponse, error)
}

func (s *scripted) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	return s.reply(n, req)
}

// calls answers with a tool call to name with args.
func calls(name, args string) sdk.ChatResponse {
	return sdk.ChatResponse{
		Message:    sdk.Message{Role: "assistant", ToolCalls: []sdk.ToolCall{{Name: name, Arguments: json.RawMessage(args)}}},
		StopReason: "tool_use", Usage: sdk.Usage{InputTokens: 10, OutputTokens: 5},
	}
}

// says answers with text and no tool call.
func says(text string) sdk.ChatResponse {
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: text}, StopReason: "end_turn",
		Usage: sdk.Usage{InputTokens: 7, OutputTokens: 3}}
}

// sequence answers with the responses in order, then with the last.
func sequence(rs ...sdk.ChatResponse) *scripted {
	return &scripted{reply: func(n int, _ sdk.ChatRequest) (sdk.ChatResponse, error) {
		return rs[min(n, len(rs)-1)], nil
	}}
}

// lastToolText is the content of the last tool message of the request.
func lastToolText(req sdk.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// traceJSON decodes the trace's JSON form, as targets see it.
func traceJSON(t *testing.T, tr *Trace) map[string]any {
	t.Helper()
	b, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
