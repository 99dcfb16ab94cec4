//go:build unix

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// wantDiscoverLine is the exact first line a modern session writes: the
// discover request with the protocol _meta and nothing else.
const wantDiscoverLine = `{"jsonrpc":"2.0","id":1000001,"method":"server/discover","params":{"_meta":{` +
	`"io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"mcptest","version":"dev"},` +
	`"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`

// startTappedDemo starts the demo server at rev behind a shell tee that
// copies every byte the session writes to its stdin into a file, and
// returns the session and the file.
func startTappedDemo(t *testing.T, rev string) (*Session, string) {
	t.Helper()
	wire := filepath.Join(t.TempDir(), "stdin.log")
	s := startDemo(t, func(c *StdioConfig) {
		c.Command = []string{"/bin/sh", "-c", `tee "$0" | exec "$1"`, wire, demoBin(t)}
		c.ProtocolVersion = rev
	})
	return s, wire
}

// wireLines reads the tapped stdin once it holds at least n lines.
func wireLines(t *testing.T, path string, n int) []string {
	t.Helper()
	var lines []string
	waitFor(t, 10*time.Second, "the tapped stdin", func() bool {
		b, _ := os.ReadFile(path)
		lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		return len(b) > 0 && len(lines) >= n
	})
	return lines
}

// metaOf decodes a request line and returns its method and params._meta.
func metaOf(t *testing.T, line string) (string, map[string]json.RawMessage) {
	t.Helper()
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("wire line %q: %v", line, err)
	}
	return m.Method, m.Params.Meta
}

func TestModernStdioOpensWithDiscover(t *testing.T) {
	s, wire := startTappedDemo(t, ModernProtocolVersion)
	if got := s.ProtocolVersion(); got != ModernProtocolVersion {
		t.Errorf("ProtocolVersion = %q", got)
	}
	if name, version := s.ServerInfo(); name != "mcptest-demo" || version != "1.0.0" {
		t.Errorf("ServerInfo = %q %q", name, version)
	}
	d := s.Discovery()
	if d == nil || !slices.Contains(d.SupportedVersions, ModernProtocolVersion) || !bytes.Contains(d.Capabilities, []byte(`"tools"`)) {
		t.Fatalf("Discovery = %+v", d)
	}
	if !bytes.Equal(s.ServerCapabilities(), d.Capabilities) {
		t.Errorf("ServerCapabilities = %s, want the discovered %s", s.ServerCapabilities(), d.Capabilities)
	}

	out := callTool(t, s, "echo", `{"message":"hi"}`)
	if got := toolText(t, out.Result); got != "hi" {
		t.Errorf("echo = %q", got)
	}
	if !bytes.Contains(out.Result, []byte(`"resultType":"complete"`)) {
		t.Errorf("result lacks the modern resultType: %s", out.Result)
	}

	lines := wireLines(t, wire, 2)
	if lines[0] != wantDiscoverLine {
		t.Errorf("first line on the wire:\n got %s\nwant %s", lines[0], wantDiscoverLine)
	}
	wantCall := `{"jsonrpc":"2.0","id":1000002,"method":"tools/call","params":{"_meta":{` +
		`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcptest","version":"dev"},` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"message":"hi"},"name":"echo"}}`
	if lines[1] != wantCall {
		t.Errorf("tools/call on the wire:\n got %s\nwant %s", lines[1], wantCall)
	}
	if got := strings.TrimSuffix(out.Frames[0].Raw, "\n"); got != lines[1] {
		t.Errorf("the recorded frame differs from the wire:\n%s\n%s", got, lines[1])
	}
	for _, l := range lines {
		if strings.Contains(l, `"initialize"`) || strings.Contains(l, "notifications/initialized") {
			t.Errorf("a modern session sent a legacy handshake: %s", l)
		}
	}
}

func TestModernMetaKeepsOtherMetaMembers(t *testing.T) {
	s, wire := startTappedDemo(t, ModernProtocolVersion)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.Request(ctx, "tools/list", json.RawMessage(`{"_meta":{"progressToken":"p-1"}}`))
	if err != nil || out.RPCError != nil {
		t.Fatalf("tools/list: %v %+v", err, out)
	}
	lines := wireLines(t, wire, 2)
	method, meta := metaOf(t, lines[1])
	if method != "tools/list" || string(meta["progressToken"]) != `"p-1"` ||
		string(meta[metaProtocolVersion]) != `"2026-07-28"` || string(meta[metaClientCapabilities]) != `{}` {
		t.Errorf("tools/list line: %s", lines[1])
	}
	if _, err := s.Request(ctx, "tools/list", json.RawMessage(`[1]`)); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("array params: %v", err)
	}
}

// TestModernNoEmulatedPass shows that mcp-go's local emulation of ping
// (answered without sending anything on a modern connection) can never
// stand in for a server's answer: the client is not initialised in the
// modern era, so it refuses, and a ping of our own reaches the server,
// which has removed the method.
func TestModernNoEmulatedPass(t *testing.T) {
	s, wire := startTappedDemo(t, ModernProtocolVersion)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.client.Ping(ctx); err == nil {
		t.Error("mcp-go's Ping passed on a modern session")
	}
	if err := s.client.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelDebug}}); err == nil {
		t.Error("mcp-go's SetLevel passed on a modern session")
	}
	out, err := s.Request(ctx, "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.RPCError == nil || out.RPCError.Code != -32601 {
		t.Errorf("ping on a 2026-07-28 server = %+v, want -32601 (the method is removed)", out)
	}
	for _, l := range wireLines(t, wire, 2) {
		if m, _ := metaOf(t, l); m == "logging/setLevel" {
			t.Errorf("mcp-go wrote to the server: %s", l)
		}
	}
}

func TestModernLegacyServerErrorsClearly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := StartStdio(ctx, StdioConfig{Name: "chaos", Command: []string{chaosBin(t)}, ProtocolVersion: ModernProtocolVersion,
		InitTimeout: 10 * time.Second})
	if !errors.Is(err, ErrRevisionUnsupported) {
		t.Fatalf("err = %v, want ErrRevisionUnsupported", err)
	}
	for _, want := range []string{`server "chaos" does not speak protocol revision 2026-07-28`, "server/discover", "-32601", "method not found"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestModernUnsupportedRevisionNamesWhatTheServerSpeaks(t *testing.T) {
	e := &RPCError{Code: codeUnsupportedVersion, Message: "unsupported", Data: json.RawMessage(`{"supported":["2025-11-25"],"requested":"2026-07-28"}`)}
	if got := supportedHint(e, ModernProtocolVersion); got != "; the server speaks 2025-11-25, not 2026-07-28" {
		t.Errorf("hint = %q", got)
	}
	if got := supportedHint(&RPCError{Code: -32601}, ModernProtocolVersion); got != "" {
		t.Errorf("hint for -32601 = %q", got)
	}
}

func TestModernInputRequiredIsAnError(t *testing.T) {
	s := startDemo(t, func(c *StdioConfig) { c.ProtocolVersion = ModernProtocolVersion })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.CallTool(ctx, "confirm", json.RawMessage(`{"action":"deploy"}`))
	if !errors.Is(err, ErrInputRequired) {
		t.Fatalf("err = %v, want ErrInputRequired", err)
	}
	for _, want := range []string{`tools/call "confirm"`, "server asked for input (MRTR)", `elicitation/create (key "confirm")`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if out == nil || !bytes.Contains(out.Result, []byte(`"resultType":"input_required"`)) || len(out.Frames) != 2 {
		t.Errorf("outcome = %+v", out)
	}
}

func TestModernInputHandlerAnswersAndRetries(t *testing.T) {
	s := startDemo(t, func(c *StdioConfig) { c.ProtocolVersion = ModernProtocolVersion })
	var asked map[string]json.RawMessage
	s.inputs = func(_ context.Context, req map[string]json.RawMessage) (map[string]json.RawMessage, error) {
		asked = req
		return map[string]json.RawMessage{"confirm": json.RawMessage(`{"action":"accept","content":{"ok":true}}`)}, nil
	}
	out := callTool(t, s, "confirm", `{"action":"deploy"}`)
	if got := toolText(t, out.Result); got != "deploy: confirmed=true" {
		t.Errorf("confirm = %q", got)
	}
	if !bytes.Contains(asked["confirm"], []byte(`"elicitation/create"`)) {
		t.Errorf("handler saw %s", asked["confirm"])
	}
	if len(out.Frames) != 4 {
		t.Fatalf("frames = %d, want both exchanges", len(out.Frames))
	}
	retry := out.Frames[2].Raw
	for _, want := range []string{`"requestState":"confirm:deploy"`, `"inputResponses":{"confirm":{"action":"accept"`, `"id":1000003`, metaProtocolVersion} {
		if !strings.Contains(retry, want) {
			t.Errorf("retry lacks %s: %s", want, retry)
		}
	}

	s.inputs = func(context.Context, map[string]json.RawMessage) (map[string]json.RawMessage, error) {
		return nil, errors.New("no mock for elicitation")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.CallTool(ctx, "confirm", json.RawMessage(`{"action":"x"}`)); !errors.Is(err, ErrInputRequired) || !strings.Contains(err.Error(), "no mock for elicitation") {
		t.Errorf("failing handler: %v", err)
	}
}

// modernRequests returns the requests the proxy saw, failing on any that
// the modern era does not allow (GET streams, DELETE).
func modernPosts(t *testing.T, p *recordingProxy) []seenRequest {
	t.Helper()
	var posts []seenRequest
	for _, r := range p.requests() {
		if r.Method != http.MethodPost {
			t.Errorf("a modern session sent %s %s", r.Method, r.Path)
			continue
		}
		posts = append(posts, r)
	}
	return posts
}

func TestModernHTTPHeadersAndNoSession(t *testing.T) {
	backend, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, backend, false)
	s, err := StartHTTP(context.Background(), HTTPConfig{Name: "demo", URL: p.urlFor(t, backend),
		ProtocolVersion: ModernProtocolVersion, InitTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("StartHTTP: %v", err)
	}
	if s.ProtocolVersion() != ModernProtocolVersion || s.SessionID() != "" || s.Discovery() == nil {
		t.Errorf("version %q, session id %q, discovery %v", s.ProtocolVersion(), s.SessionID(), s.Discovery())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"hé"}`))
	if err != nil || out.RPCError != nil || toolText(t, out.Result) != "hé" {
		t.Fatalf("echo: %v %+v", err, out)
	}
	if got := out.RequestHeaders.Get("Mcp-Name"); got != "echo" {
		t.Errorf("Outcome.RequestHeaders Mcp-Name = %q", got)
	}
	if out, err := s.Request(ctx, "resources/read", json.RawMessage(`{"uri":"demo://readme"}`)); err != nil || out.RPCError != nil {
		t.Errorf("resources/read: %v %+v", err, out)
	}
	// An unknown method is a 404 with a JSON-RPC error in the modern era:
	// the call gets the error, and the session lives on.
	out, err = s.Request(ctx, "x/unknown", nil)
	if err != nil || out.RPCError == nil || out.RPCError.Code != -32601 || out.HTTPStatus != http.StatusNotFound {
		t.Errorf("unknown method: %v %+v", err, out)
	}
	// A call given up on is abandoned, and the session lives on.
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = s.CallTool(short, "slow", json.RawMessage(`{"ms":2000}`))
	stop()
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("slow call: %v", err)
	}
	if _, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"again"}`)); err != nil {
		t.Errorf("echo after the 404: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	posts := modernPosts(t, p)
	if len(posts) != 6 {
		t.Fatalf("%d POSTs, want discover, echo, read, unknown, slow, echo", len(posts))
	}
	wantNames := []string{"", "echo", "demo://readme", "", "slow", "echo"}
	for i, r := range posts {
		var body struct {
			Method string `json:"method"`
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("POST %d body %q: %v", i, r.Body, err)
		}
		h := r.Header
		if h.Get("Mcp-Protocol-Version") != "2026-07-28" || h.Get("Mcp-Method") != body.Method ||
			h.Get("Mcp-Name") != wantNames[i] || h.Get("Mcp-Session-Id") != "" {
			t.Errorf("POST %d (%s) headers: %v", i, body.Method, h)
		}
		if string(body.Params.Meta[metaProtocolVersion]) != `"2026-07-28"` || body.Params.Meta[metaClientInfo] == nil {
			t.Errorf("POST %d body lacks the protocol _meta: %s", i, r.Body)
		}
	}
	if string(posts[0].Body) != wantDiscoverLine {
		t.Errorf("discover body:\n got %s\nwant %s", posts[0].Body, wantDiscoverLine)
	}
}

func TestModernHTTPRefusesLegacySSE(t *testing.T) {
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: "http://127.0.0.1:1/sse", Transport: TransportSSE, ProtocolVersion: ModernProtocolVersion})
	if err == nil || !strings.Contains(err.Error(), "not the legacy HTTP+SSE transport") {
		t.Errorf("err = %v", err)
	}
}
