package cassette

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// Config describes a cassette server.
type Config struct {
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

// Start opens the cassette at cfg.Path and returns a session that answers
// from it, after an initialize handshake answered with the recorded
// revision and serverInfo. No process is started and nothing touches the
// network. Requests are matched as requestKey says; identical requests get
// the recorded answers in recorded order, and the last one again once they
// run out. A request that matches nothing fails with ErrNoRecording.
func Start(ctx context.Context, cfg Config) (*session.Session, error) {
	c, err := Load(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("start server %q: %w", cfg.Name, err)
	}
	t := &replay{path: cfg.Path, cas: c, scrub: cfg.Scrub, answers: map[string]*answers{}}
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
	return session.StartTransport(ctx, session.TransportConfig{
		Name:            cfg.Name,
		Kind:            session.TransportCassette,
		ProtocolVersion: cfg.ProtocolVersion,
		ClientVersion:   cfg.ClientVersion,
		InitTimeout:     cfg.InitTimeout,
	}, func(deliver func([]byte)) session.Transport {
		t.deliver = deliver
		return t
	})
}

// answers are the recorded answers to one request, served in order; the
// last one repeats.
type answers struct {
	list []Exchange
	next int
}

// replay is the session.Transport that answers requests from a cassette.
type replay struct {
	deliver func([]byte) // hands the session a message "from the server"
	path    string
	cas     *Cassette
	scrub   func([]byte) []byte

	mu      sync.Mutex
	answers map[string]*answers
	bg      sync.WaitGroup
}

func (t *replay) scrubbed(b []byte) []byte {
	if t.scrub == nil || len(b) == 0 {
		return b
	}
	return t.scrub(b)
}

// Send answers msg: initialize and ping locally, the session's own
// requests from the recording; notifications and answers to the server
// are dropped.
func (t *replay) Send(ctx context.Context, msg []byte, own bool) error {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return fmt.Errorf("%w: cassette: cannot decode the request: %v", session.ErrTransport, err)
	}
	if req.Method == "" || len(req.ID) == 0 || string(req.ID) == "null" {
		return nil // a notification, or an answer to the server
	}
	if !own {
		// mcp-go's own requests: answered asynchronously, as mcp-go reads
		// the answer on another goroutine than the one writing.
		var resp []byte
		switch req.Method {
		case "initialize":
			resp = t.initializeResponse(req.ID)
		case "ping":
			resp = response(req.ID, json.RawMessage(`{}`), nil)
		default:
			resp = response(req.ID, nil, &session.RPCError{Code: -32601, Message: "cassette: " + req.Method + " is not replayed"})
		}
		t.bg.Add(1)
		go func() {
			defer t.bg.Done()
			t.deliver(resp)
		}()
		return nil
	}
	if req.Method == session.MethodDiscover {
		t.deliver(t.discoverResponse(req.ID))
		return nil
	}
	x, err := t.lookup(req.Method, session.WithoutModernMeta(req.Params))
	if err != nil {
		return err
	}
	// What the server sent during the call comes first, as it did live:
	// a capture sees the notifications, and the mocks answer the requests
	// (their answers come back through Send and are dropped).
	for _, m := range x.Messages {
		t.deliver(m)
	}
	t.deliver(response(req.ID, x.Result, x.Error))
	return nil
}

// lookup finds the recorded answer to a request.
func (t *replay) lookup(method string, params json.RawMessage) (Exchange, error) {
	scrubbed := t.scrubbed(params)
	k, err := requestKey(method, scrubbed)
	if err != nil {
		return Exchange{}, fmt.Errorf("%w: cassette: params are not JSON: %v", session.ErrBadResponse, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.answers[k]
	if a == nil || len(a.list) == 0 {
		shown, _ := jsonx.Canonical(scrubbed)
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
func (t *replay) initializeResponse(id json.RawMessage) []byte {
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
func response(id, result json.RawMessage, rpcErr *session.RPCError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string            `json:"jsonrpc"`
		ID      json.RawMessage   `json:"id"`
		Result  json.RawMessage   `json:"result,omitempty"`
		Error   *session.RPCError `json:"error,omitempty"`
	}{"2.0", id, result, rpcErr})
	return append(b, '\n')
}

// Drain waits for the answers to mcp-go still being delivered.
func (t *replay) Drain() { t.bg.Wait() }

// Detail names the cassette a failed start was replayed from.
func (t *replay) Detail() string { return "; replayed from cassette " + t.path }
