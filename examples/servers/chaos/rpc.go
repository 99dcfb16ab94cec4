package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// protocolVersions are the revisions the server accepts in initialize; it
// answers any other request with the first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// message is a JSON-RPC request or notification from the client.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// isRequest reports whether m expects an answer.
func (m *message) isRequest() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// server answers one client over a pair of streams.
type server struct {
	cfg  config
	mu   sync.Mutex // serialises writes to out: one line at a time
	out  io.Writer
	errw io.Writer
	// exit ends the process; tests replace it.
	exit func(code int)
	// calls tracks tool calls in flight, so serve can wait for them.
	calls sync.WaitGroup
}

func newServer(cfg config, out, errw io.Writer) *server {
	return &server{cfg: cfg, out: out, errw: errw, exit: os.Exit}
}

// serve reads one message per line until in ends. Tool calls run
// concurrently, so a hanging tool does not block the others.
func (s *server) serve(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			s.handle(line)
		}
		if err != nil {
			return
		}
	}
}

// handle dispatches one message.
func (s *server) handle(line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		s.writeJSON(map[string]any{"jsonrpc": "2.0", "id": nil,
			"error": map[string]any{"code": -32700, "message": "parse error"}})
		return
	}
	switch m.Method {
	case "initialize":
		s.initialize(&m)
	case "ping":
		s.result(m.ID, map[string]any{})
	case "tools/list":
		s.result(m.ID, map[string]any{"tools": toolList()})
	case "resources/list":
		s.listResources(&m)
	case "tools/call":
		s.calls.Add(1)
		go func() {
			defer s.calls.Done()
			s.callTool(&m)
		}()
	default:
		if m.isRequest() {
			s.rpcError(m.ID, -32601, "method not found: "+m.Method)
		}
	}
}

// initialize answers the handshake, or exits when -init-exit asks.
func (s *server) initialize(m *message) {
	if s.cfg.initExit >= 0 {
		fmt.Fprintf(s.errw, "chaos: exiting during initialize with status %d\n", s.cfg.initExit)
		s.exit(s.cfg.initExit)
		return
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Params, &p)
	version := protocolVersions[0]
	for _, v := range protocolVersions {
		if v == p.ProtocolVersion {
			version = v
		}
	}
	s.result(m.ID, map[string]any{
		"protocolVersion": version,
		"capabilities":    s.capabilities(),
		"serverInfo":      map[string]any{"name": serverName, "version": serverVersion},
	})
}

// result writes a result response for id.
func (s *server) result(id json.RawMessage, result any) {
	s.writeJSON(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// rpcError writes an error response for id.
func (s *server) rpcError(id json.RawMessage, code int, msg string) {
	s.writeJSON(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// writeJSON writes v as one line.
func (s *server) writeJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(s.errw, "chaos: encode: %v\n", err)
		return
	}
	s.writeRaw(append(b, '\n'))
}

// writeRaw writes the given pieces as one uninterrupted unit.
func (s *server) writeRaw(parts ...[]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range parts {
		if _, err := s.out.Write(p); err != nil {
			return
		}
	}
}
