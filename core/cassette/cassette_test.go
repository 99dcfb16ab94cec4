//go:build unix

package cassette

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/internal/redact"
)

// cassetteCall is one request the record and replay tests make.
type cassetteCall struct {
	method string
	params string
}

// callRaw makes c on s: tools/call through CallTool, anything else through
// Request.
func callRaw(t *testing.T, s *session.Session, c cassetteCall) (*session.Outcome, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if c.method == "tools/call" {
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(c.params), &p); err != nil {
			t.Fatal(err)
		}
		return s.CallTool(ctx, p.Name, p.Arguments)
	}
	return s.Request(ctx, c.method, json.RawMessage(c.params))
}

// canon renders raw JSON canonically for comparisons.
func canon(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	b, err := jsonx.Canonical(raw)
	if err != nil {
		t.Fatalf("canonical %s: %v", raw, err)
	}
	return string(b)
}

func TestCassetteRecordThenReplay(t *testing.T) {
	calls := []cassetteCall{
		{"tools/call", `{"name":"add","arguments":{"a":2,"b":3}}`},
		{"tools/call", `{"name":"echo","arguments":{"message":"hello <world> & co"}}`},
		{"tools/call", `{"name":"echo","arguments":{"message":"hello <world> & co"}}`},
		{"tools/call", `{"name":"fail"}`},
		{"tools/call", `{"name":"no_such_tool","arguments":{}}`},
		{"tools/list", ``},
		{"resources/list", ``},
	}
	live := startDemo(t)
	rec := NewRecorder("demo", nil)
	want := make([]*session.Outcome, len(calls))
	for i, c := range calls {
		out, err := callRaw(t, live, c)
		if err != nil {
			t.Fatalf("live %v: %v", c, err)
		}
		rec.Observe(live, c.method, json.RawMessage(c.params), out, err)
		want[i] = out
	}
	// A transport failure has no answer and is not recorded.
	rec.Observe(live, "tools/call", json.RawMessage(`{"name":"slow"}`), nil, session.ErrTimeout)

	path := filepath.Join(t.TempDir(), "demo.json")
	cas := rec.Cassette()
	if err := cas.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	// The two identical echo calls got identical answers: kept once.
	if got := len(cas.Exchanges); got != len(calls)-1 {
		t.Errorf("%d exchanges, want %d", got, len(calls)-1)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(written, []byte("hello <world> & co")) {
		t.Errorf("HTML characters were escaped:\n%s", written)
	}
	// Deterministic: writing again gives the same bytes.
	again, _ := rec.Cassette().Encode()
	if !bytes.Equal(again, written) {
		t.Errorf("second encoding differs:\n%s\n---\n%s", written, again)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	replay, err := Start(ctx, Config{Name: "demo", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	if replay.Transport() != session.TransportCassette || replay.PID() != 0 {
		t.Errorf("transport %q, pid %d", replay.Transport(), replay.PID())
	}
	if replay.ProtocolVersion() != live.ProtocolVersion() {
		t.Errorf("protocol %q, recorded %q", replay.ProtocolVersion(), live.ProtocolVersion())
	}
	gn, gv := replay.ServerInfo()
	wn, wv := live.ServerInfo()
	if gn != wn || gv != wv {
		t.Errorf("serverInfo %s %s, recorded %s %s", gn, gv, wn, wv)
	}
	// Replay in reverse order: matching ignores order.
	for i := len(calls) - 1; i >= 0; i-- {
		out, err := callRaw(t, replay, calls[i])
		if err != nil {
			t.Fatalf("replay %v: %v", calls[i], err)
		}
		if canon(t, out.Result) != canon(t, want[i].Result) {
			t.Errorf("%v: result\n got %s\nwant %s", calls[i], out.Result, want[i].Result)
		}
		if (out.RPCError == nil) != (want[i].RPCError == nil) ||
			(out.RPCError != nil && (out.RPCError.Code != want[i].RPCError.Code || out.RPCError.Message != want[i].RPCError.Message)) {
			t.Errorf("%v: error %v, want %v", calls[i], out.RPCError, want[i].RPCError)
		}
		if out.IsError() != want[i].IsError() {
			t.Errorf("%v: isError %v", calls[i], out.IsError())
		}
	}
	// Arguments match structurally: key order and number spelling do not
	// matter.
	out, err := callRaw(t, replay, cassetteCall{"tools/call", `{"arguments":{"b":3.0,"a":2},"name":"add"}`})
	if err != nil || canon(t, out.Result) != canon(t, want[0].Result) {
		t.Errorf("reordered arguments: %v %s", err, out.Result)
	}
	// An unmatched request fails with the request shown.
	_, err = callRaw(t, replay, cassetteCall{"tools/call", `{"name":"add","arguments":{"a":2,"b":4}}`})
	if !errors.Is(err, ErrNoRecording) || !strings.Contains(err.Error(), `{"arguments":{"a":2,"b":4},"name":"add"}`) ||
		!strings.Contains(err.Error(), path) {
		t.Errorf("unmatched: %v", err)
	}
	// The session stays usable after a miss.
	if _, err := callRaw(t, replay, calls[0]); err != nil {
		t.Errorf("after a miss: %v", err)
	}
}

func TestCassetteRepeatedRequestsReplayInOrderThenRepeatLast(t *testing.T) {
	cas := &Cassette{Server: "x", ProtocolVersion: "2025-11-25", ServerInfo: ServerInfo{Name: "x", Version: "1"}}
	for _, n := range []string{"1", "2"} {
		cas.Exchanges = append(cas.Exchanges, Exchange{Method: "tools/call",
			Params: json.RawMessage(`{"name":"counter","arguments":{}}`),
			Result: json.RawMessage(`{"content":[{"type":"text","text":"` + n + `"}]}`)})
	}
	cas.Exchanges = append(cas.Exchanges, Exchange{Method: "prompts/get", Params: json.RawMessage(`{"name":"p"}`),
		Error: &session.RPCError{Code: -32602, Message: "no such prompt"}})
	path := filepath.Join(t.TempDir(), "x.json")
	if err := cas.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), Config{Name: "x", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for range 4 {
		out, err := callRaw(t, s, cassetteCall{"tools/call", `{"name":"counter"}`})
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Content []struct{ Text string } `json:"content"`
		}
		_ = json.Unmarshal(out.Result, &r)
		got = append(got, r.Content[0].Text)
	}
	if strings.Join(got, ",") != "1,2,2,2" {
		t.Errorf("answers %v, want 1,2,2,2", got)
	}
	// prompts/get without arguments matches arguments: {}.
	out, err := s.Request(context.Background(), "prompts/get", json.RawMessage(`{"name":"p","arguments":{}}`))
	if err != nil || out.RPCError == nil || out.RPCError.Code != -32602 {
		t.Errorf("prompts/get: %v %+v", err, out)
	}
}

func TestCassetteLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"version.json":  `{"version":99,"exchanges":[]}`,
		"garbage.json":  `not json`,
		"noanswer.json": `{"version":1,"exchanges":[{"method":"tools/call"}]}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Start(context.Background(), Config{Name: "x", Path: path}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Start(context.Background(), Config{Name: "x", Path: filepath.Join(dir, "missing.json")}); err == nil ||
		!strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestCassetteNeverWritesSecrets records a call over HTTP with a bearer
// token that the demo's request_headers tool echoes back, through the
// suite redactor, and checks the token is nowhere in the file; a request
// carrying the secret still matches on replay.
func TestCassetteNeverWritesSecrets(t *testing.T) {
	const token = "cassette-secret-token-4242"
	u, _ := startDemoURL(t, "--http")
	live := startURLSession(t, session.HTTPConfig{URL: u, Auth: session.Auth{BearerToken: token, BearerTokenEnv: "TOKEN"}})
	scrub := redact.New(token).Bytes
	rec := NewRecorder("web", scrub)
	calls := []cassetteCall{
		{"tools/call", `{"name":"request_headers"}`},
		{"tools/call", `{"name":"echo","arguments":{"message":"` + token + `"}}`},
	}
	for _, c := range calls {
		out, err := callRaw(t, live, c)
		if err != nil {
			t.Fatal(err)
		}
		if c.method == "tools/call" && strings.Contains(c.params, "request_headers") && !strings.Contains(string(out.Result), token) {
			t.Fatalf("the demo did not echo the token: %s", out.Result)
		}
		rec.Observe(live, c.method, json.RawMessage(c.params), out, err)
	}
	path := filepath.Join(t.TempDir(), "web.json")
	if err := rec.Cassette().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if bytes.Contains(b, []byte(token)) || !bytes.Contains(b, []byte("REDACTED")) {
		t.Fatalf("cassette:\n%s", b)
	}
	s, err := Start(context.Background(), Config{Name: "web", Path: path, Scrub: scrub})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range calls {
		if _, err := callRaw(t, s, c); err != nil {
			t.Errorf("replay %v: %v", c, err)
		}
	}
}

// TestCassetteMasksEscapedSecrets records answers that carry the secret
// the way other servers write JSON ("\/", \u escapes in either case, the
// text of a tool result holding JSON with its own escapes) and checks the
// file, whose canonical form would decode every escape, holds none of it.
func TestCassetteMasksEscapedSecrets(t *testing.T) {
	const token = "tok/é-SECRET-4242"
	rec := NewRecorder("web", redact.New(token).Bytes)
	params := `{"name":"echo","arguments":{"message":"tok\u002F\u00e9-SECRET-4242"}}`
	result := `{"content":[{"type":"text","text":"tok\/\u00E9-SECRET-4242 and {\"k\":\"tok\\\/\\u00e9-SECRET-4242\"}"}]}`
	errData := `{"echo":"\u0074ok\/\u00c3\u00a9"}` // not the secret: mojibake of é stays
	rec.Observe(nil, "tools/call", json.RawMessage(params), &session.Outcome{Result: json.RawMessage(result)}, nil)
	rec.Observe(nil, "prompts/get", json.RawMessage(`{"name":"p"}`), &session.Outcome{RPCError: &session.RPCError{Code: 1, Message: `bad tok\/é-SECRET-4242`, Data: json.RawMessage(errData)}}, nil)
	path := filepath.Join(t.TempDir(), "web.json")
	if err := rec.Cassette().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if bytes.Contains(b, []byte("SECRET")) || bytes.Count(b, []byte(session.Redacted)) != 4 {
		t.Fatalf("cassette:\n%s", b)
	}
	if !bytes.Contains(b, []byte(`"echo": "tok/Ã©"`)) {
		t.Errorf("a value without the secret was changed:\n%s", b)
	}
}
