package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// exited is what a stubbed exit recorded.
type exited struct {
	mu    sync.Mutex
	codes []int
}

// run feeds lines to a fresh server, waits for its tool calls to finish and
// returns what it wrote to stdout and stderr and the exit statuses it asked for.
func run(t *testing.T, cfg config, lines ...string) (stdout, stderr string, codes []int) {
	t.Helper()
	var out, errw bytes.Buffer
	var ex exited
	s := newServer(cfg, &out, &errw)
	s.exit = func(code int) {
		ex.mu.Lock()
		ex.codes = append(ex.codes, code)
		ex.mu.Unlock()
	}
	s.serve(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	s.calls.Wait()
	return out.String(), errw.String(), ex.codes
}

// call is a tools/call request line with id 7.
func call(name, args string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

// responses decodes stdout's lines as JSON-RPC responses.
func responses(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestInitializeAndList(t *testing.T) {
	stdout, _, _ := run(t, config{initExit: -1},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	rs := responses(t, stdout)
	if len(rs) != 2 {
		t.Fatalf("want 2 responses, got %s", stdout)
	}
	if v := rs[0]["result"].(map[string]any)["protocolVersion"]; v != "2025-06-18" {
		t.Errorf("protocolVersion = %v", v)
	}
	if n := len(rs[1]["result"].(map[string]any)["tools"].([]any)); n != len(toolList()) {
		t.Errorf("%d tools listed", n)
	}
}

func TestInitExit(t *testing.T) {
	stdout, stderr, codes := run(t, config{initExit: 4}, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if stdout != "" || len(codes) != 1 || codes[0] != 4 || !strings.Contains(stderr, "during initialize") {
		t.Fatalf("stdout %q stderr %q codes %v", stdout, stderr, codes)
	}
}

func TestCrash(t *testing.T) {
	stdout, stderr, codes := run(t, config{initExit: -1}, call("crash", `{"code":5}`))
	if stdout != "" || len(codes) != 1 || codes[0] != 5 || !strings.Contains(stderr, "exit status 5") {
		t.Fatalf("stdout %q stderr %q codes %v", stdout, stderr, codes)
	}
}

func TestWrongAndDuplicateIDs(t *testing.T) {
	stdout, _, _ := run(t, config{initExit: -1}, call("wrong_id", `{}`))
	if rs := responses(t, stdout); len(rs) != 1 || rs[0]["id"] != "7" {
		t.Errorf("wrong_id answered %s", stdout)
	}
	stdout, _, _ = run(t, config{initExit: -1}, call("duplicate", `{"first":"a","second":"b"}`))
	rs := responses(t, stdout)
	if len(rs) != 2 || rs[0]["id"] != 7.0 || rs[1]["id"] != 7.0 {
		t.Errorf("duplicate answered %s", stdout)
	}
}

func TestGarbage(t *testing.T) {
	stdout, _, _ := run(t, config{initExit: -1}, call("garbage", `{"lines":2,"answer":true}`))
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || lines[0] != garbageLine || json.Valid([]byte(lines[0])) || !json.Valid([]byte(lines[2])) {
		t.Errorf("garbage wrote %q", stdout)
	}
}

func TestBig(t *testing.T) {
	stdout, _, _ := run(t, config{initExit: -1}, call("big", `{"bytes":200000}`))
	rs := responses(t, stdout)
	text := rs[0]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if len(text) != 200000 || !strings.HasPrefix(text, "BEGINxx") || !strings.HasSuffix(text, "xxEND") {
		t.Errorf("big text: %d bytes, %.10q...", len(text), text)
	}
}

func TestDeep(t *testing.T) {
	stdout, _, _ := run(t, config{initExit: -1}, call("deep", `{}`))
	if n := strings.Count(stdout, "["); n != defaultDepth+1 { // +1: the content array
		t.Errorf("%d '[' written", n)
	}
	var v any
	if err := json.Unmarshal([]byte(stdout), &v); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("decoding 100,000 levels: err = %v, want the depth limit", err)
	}
	stdout, _, _ = run(t, config{initExit: -1}, call("deep", `{"depth":50}`))
	if rs := responses(t, stdout); rs[0]["result"] == nil {
		t.Errorf("shallow deep answered %s", stdout)
	}
}

func TestANSI(t *testing.T) {
	stdout, stderr, _ := run(t, config{initExit: -1}, call("ansi", `{}`))
	rs := responses(t, stdout)
	text := rs[0]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	if text != ansiText || !strings.Contains(stderr, "\x1b[31m") {
		t.Errorf("text %q stderr %q", text, stderr)
	}
}
