package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptest/mcptest/internal/safefile"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TransportCassette is a recording replayed from a file: no process, no
// network (StartCassette).
const TransportCassette = "cassette"

// CassetteVersion is the cassette format version this build reads and
// writes.
const CassetteVersion = 1

// ErrNoRecording is wrapped by the error of a call on a cassette session
// that matches no recorded exchange. The error shows the request.
var ErrNoRecording = errors.New("no recorded exchange matches the request")

// Cassette is the recording of one server: what it said about itself in
// initialize and the exchanges of a run. docs/cassettes.md describes the
// file.
type Cassette struct {
	// Version is the format version, CassetteVersion.
	Version int `json:"version"`
	// Server is the name of the server in the suite that was recorded.
	Server string `json:"server"`
	// Transport is how the server was reached while recording (stdio,
	// streamable or sse); informative only.
	Transport string `json:"transport,omitempty"`
	// ProtocolVersion is the revision the server answered initialize with.
	ProtocolVersion string `json:"protocolVersion"`
	// ServerInfo is the server's name and version from initialize.
	ServerInfo CassetteServerInfo `json:"serverInfo"`
	// Capabilities are the server's capabilities from initialize.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Exchanges are the recorded requests and their answers.
	Exchanges []Exchange `json:"exchanges"`
}

// CassetteServerInfo is initialize's serverInfo.
type CassetteServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Exchange is one recorded request and the server's answer: a result or a
// JSON-RPC error.
type Exchange struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Messages are the notifications and requests the server sent while
	// the request was in flight, in order; replay sends them again before
	// the answer.
	Messages []json.RawMessage `json:"messages,omitempty"`
	Result   json.RawMessage   `json:"result,omitempty"`
	Error    *RPCError         `json:"error,omitempty"`
}

// MaxCassetteBytes bounds a cassette file LoadCassette reads: room for a
// few recorded 50 MB answers, refused from its size before any read.
const MaxCassetteBytes = 1 << 30

// LoadCassette reads and checks a cassette file.
func LoadCassette(path string) (*Cassette, error) {
	// Bounded and non-blocking like every file mcptest is given by path
	// (internal/safefile): a FIFO or a device is refused, not waited on.
	b, err := safefile.ReadFile(path, MaxCassetteBytes)
	if err != nil {
		return nil, fmt.Errorf("cassette: %w", err)
	}
	var c Cassette
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("cassette %s: not a cassette: %w", path, err)
	}
	if c.Version != CassetteVersion {
		return nil, fmt.Errorf("cassette %s: format version %d is not supported (this build reads version %d)", path, c.Version, CassetteVersion)
	}
	for i, x := range c.Exchanges {
		if x.Method == "" {
			return nil, fmt.Errorf("cassette %s: exchanges[%d] has no method", path, i)
		}
		if len(x.Result) == 0 && x.Error == nil {
			return nil, fmt.Errorf("cassette %s: exchanges[%d] (%s) has neither result nor error", path, i, x.Method)
		}
	}
	return &c, nil
}

// Encode renders the cassette deterministically: every JSON object with
// its keys sorted, exchanges sorted by method and canonical params
// (recorded order kept among identical requests), indented by two spaces.
func (c *Cassette) Encode() ([]byte, error) {
	out := *c
	out.Version = CassetteVersion
	var err error
	if out.Capabilities, err = canonicalJSON(c.Capabilities); err != nil {
		return nil, fmt.Errorf("capabilities: %w", err)
	}
	out.Exchanges = make([]Exchange, len(c.Exchanges))
	keys := make([]string, len(c.Exchanges))
	for i, x := range c.Exchanges {
		if x.Params, err = canonicalJSON(x.Params); err != nil {
			return nil, fmt.Errorf("%s params: %w", x.Method, err)
		}
		if x.Result, err = canonicalJSON(x.Result); err != nil {
			return nil, fmt.Errorf("%s result: %w", x.Method, err)
		}
		if x.Error != nil {
			e := *x.Error
			if e.Data, err = canonicalJSON(e.Data); err != nil {
				return nil, fmt.Errorf("%s error data: %w", x.Method, err)
			}
			x.Error = &e
		}
		out.Exchanges[i] = x
		keys[i] = string(x.Params)
	}
	idx := make([]int, len(out.Exchanges))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		xa, xb := out.Exchanges[idx[a]], out.Exchanges[idx[b]]
		if xa.Method != xb.Method {
			return xa.Method < xb.Method
		}
		return keys[idx[a]] < keys[idx[b]]
	})
	sorted := make([]Exchange, len(idx))
	for i, j := range idx {
		sorted[i] = out.Exchanges[j]
	}
	out.Exchanges = sorted
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFile writes the encoded cassette to path atomically: to a
// temporary file in the same folder, then renamed over path.
func (c *Cassette) WriteFile(path string) error {
	b, err := c.Encode()
	if err != nil {
		return fmt.Errorf("cassette %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// canonicalJSON re-encodes raw with sorted object keys, numbers as
// written and no HTML escaping; empty and absent stay empty.
func canonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// requestKey is what replay matches a request on: the method and the
// params compared structurally (object keys in any order, numbers by
// value: 1 and 1.0 are equal). For tools/call and prompts/get, absent or
// null arguments count as {}.
func requestKey(method string, params json.RawMessage) (string, error) {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(0)
	params = bytes.TrimSpace(params)
	if len(params) == 0 || string(params) == "null" {
		return b.String(), nil
	}
	v, err := decodeJSON(params)
	if err != nil {
		return "", err
	}
	if m, ok := v.(map[string]any); ok && (method == "tools/call" || method == "prompts/get") {
		if a, ok := m["arguments"]; !ok || a == nil {
			m["arguments"] = map[string]any{}
		}
	}
	writeKey(&b, v)
	return b.String(), nil
}

// writeKey writes v in a canonical form.
func writeKey(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeKey(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeKey(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok {
			b.WriteString(r.RatString())
		} else {
			b.WriteString(string(v))
		}
	case string:
		b.WriteString(strconv.Quote(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	}
}

// CassetteConfig describes a cassette server.
type CassetteConfig struct {
	// Name names the session in errors.
	Name string
	// Path is the cassette file.
	Path string
	// ProtocolVersion is the revision requested in initialize; the
	// recorded revision is what the replayed server answers.
	ProtocolVersion string
	// ClientVersion is sent as clientInfo.version.
	ClientVersion string
	// Scrub, when set, is applied to each request's params before they
	// are matched, as it was to the recorded params: the suite's
	// redactor, so requests carrying a secret still match.
	Scrub func([]byte) []byte
	// InitTimeout bounds the (local) handshake; 0 means a default.
	InitTimeout time.Duration
}

// StartCassette opens the cassette at cfg.Path and returns a session that
// answers from it, after an initialize handshake answered with the
// recorded revision and serverInfo. No process is started and nothing
// touches the network. Requests are matched as requestKey says; identical
// requests get the recorded answers in recorded order, and the last one
// again once they run out. A request that matches nothing fails with
// ErrNoRecording.
func StartCassette(ctx context.Context, cfg CassetteConfig) (*Session, error) {
	c, err := LoadCassette(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("start server %q: %w", cfg.Name, err)
	}
	t := &cassetteTransport{path: cfg.Path, cas: c, scrub: cfg.Scrub, answers: map[string]*answers{}}
	for _, x := range c.Exchanges {
		k, err := requestKey(x.Method, t.scrubbed(x.Params))
		if err != nil {
			return nil, fmt.Errorf("start server %q: cassette %s: %s params: %w", cfg.Name, cfg.Path, x.Method, err)
		}
		a := t.answers[k]
		if a == nil {
			a = &answers{}
			t.answers[k] = a
		}
		a.list = append(a.list, x)
	}
	if cfg.ProtocolVersion == "" {
		cfg.ProtocolVersion = c.ProtocolVersion
	}
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = 10 * time.Second
	}
	s := newSession(options{
		name:            cfg.Name,
		protocolVersion: cfg.ProtocolVersion,
		clientVersion:   cfg.ClientVersion,
		initTimeout:     cfg.InitTimeout,
	}, TransportCassette)
	t.s = s
	s.t = t
	if err := s.startClient(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("start server %q: mcp client: %w", cfg.Name, err)
	}
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// answers are the recorded answers to one request, served in order; the
// last one repeats.
type answers struct {
	list []Exchange
	next int
}

// cassetteTransport answers requests from a cassette.
type cassetteTransport struct {
	s     *Session
	path  string
	cas   *Cassette
	scrub func([]byte) []byte

	mu      sync.Mutex
	answers map[string]*answers
	bg      sync.WaitGroup
}

func (t *cassetteTransport) scrubbed(b []byte) []byte {
	if t.scrub == nil || len(b) == 0 {
		return b
	}
	return t.scrub(b)
}

// send answers msg: initialize and ping locally, our calls from the
// recording; notifications and mcp-go's answers are dropped.
func (t *cassetteTransport) send(ctx context.Context, msg []byte, c *call) error {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return fmt.Errorf("%w: cassette: cannot decode the request: %v", ErrTransport, err)
	}
	if req.Method == "" || len(req.ID) == 0 || string(req.ID) == "null" {
		return nil // a notification, or an answer to the server
	}
	if c == nil {
		// mcp-go's own requests: answered asynchronously, as mcp-go reads
		// the answer on another goroutine than the one writing.
		var resp []byte
		switch req.Method {
		case "initialize":
			resp = t.initializeResponse(req.ID)
		case "ping":
			resp = response(req.ID, json.RawMessage(`{}`), nil)
		default:
			resp = response(req.ID, nil, &RPCError{Code: -32601, Message: "cassette: " + req.Method + " is not replayed"})
		}
		t.bg.Add(1)
		go func() {
			defer t.bg.Done()
			t.s.route(resp, source{})
		}()
		return nil
	}
	if req.Method == methodDiscover {
		t.s.route(t.discoverResponse(req.ID), source{})
		return nil
	}
	x, err := t.lookup(req.Method, withoutModernMeta(req.Params))
	if err != nil {
		return err
	}
	// What the server sent during the call comes first, as it did live:
	// a capture sees the notifications, and the mocks answer the requests
	// (their answers come back through send and are dropped).
	for _, m := range x.Messages {
		t.s.route(m, source{})
	}
	t.s.route(response(req.ID, x.Result, x.Error), source{})
	return nil
}

// lookup finds the recorded answer to a request.
func (t *cassetteTransport) lookup(method string, params json.RawMessage) (Exchange, error) {
	scrubbed := t.scrubbed(params)
	k, err := requestKey(method, scrubbed)
	if err != nil {
		return Exchange{}, fmt.Errorf("%w: cassette: params are not JSON: %v", ErrBadResponse, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.answers[k]
	if a == nil || len(a.list) == 0 {
		shown, _ := canonicalJSON(scrubbed)
		if len(shown) == 0 {
			shown = json.RawMessage("(no params)")
		}
		return Exchange{}, fmt.Errorf("%w in cassette %s: %s %s", ErrNoRecording, t.path, method, shown)
	}
	x := a.list[a.next]
	if a.next < len(a.list)-1 {
		a.next++
	}
	return x, nil
}

// initializeResponse is the answer to initialize: the recorded revision,
// serverInfo and capabilities.
func (t *cassetteTransport) initializeResponse(id json.RawMessage) []byte {
	caps := t.cas.Capabilities
	if len(caps) == 0 {
		caps = json.RawMessage(`{}`)
	}
	result, _ := json.Marshal(map[string]any{
		"protocolVersion": t.cas.ProtocolVersion,
		"capabilities":    caps,
		"serverInfo":      t.cas.ServerInfo,
	})
	return response(id, result, nil)
}

// response builds a JSON-RPC response frame.
func response(id, result json.RawMessage, rpcErr *RPCError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{"2.0", id, result, rpcErr})
	return append(b, '\n')
}

func (t *cassetteTransport) stop() error { return nil }

func (t *cassetteTransport) drain() { t.bg.Wait() }

func (t *cassetteTransport) detail() string { return "; replayed from cassette " + t.path }

// ServerCapabilities returns the capabilities the server declared in
// initialize (or, in the modern era, in server/discover), as JSON, or nil.
func (s *Session) ServerCapabilities() json.RawMessage {
	if s.discovery != nil {
		return s.discovery.Capabilities
	}
	if s.client == nil {
		return nil
	}
	b, err := json.Marshal(s.client.GetServerCapabilities())
	if err != nil || string(b) == "null" {
		return nil
	}
	return b
}
