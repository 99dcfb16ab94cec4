package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
)

// httpServer is the Streamable HTTP face of the fake.
type httpServer struct {
	mu       sync.Mutex
	sessions map[string]*conn
	deleted  map[string]bool
	next     int
	logs     map[string]*sseLog // SSE events by session, for resumption (sse.go)
}

func serveHTTP(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "fakeserver: listening on http://%s/mcp\n", ln.Addr())
	h := &httpServer{sessions: map[string]*conn{}, deleted: map[string]bool{}, logs: map[string]*sseLog{}}
	return http.Serve(ln, h)
}

var knownRevisions = map[string]bool{"2024-11-05": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true, "2026-07-28": true}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (h *httpServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !on("h06-no-origin-check") {
		if origin := r.Header.Get("Origin"); origin != "" {
			o := strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://")
			if !loopbackHost(o) {
				http.Error(w, "forbidden origin", http.StatusForbidden)
				return
			}
		}
		if !loopbackHost(r.Host) && !on("h06-no-host-check") {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
	}
	if r.Method != http.MethodPost && h.badVersion(w, r) {
		return
	}
	switch r.Method {
	case http.MethodGet:
		if on("h03-404") {
			http.NotFound(w, r)
			return
		}
		if last := r.Header.Get("Last-Event-Id"); last != "" && on("sse") {
			h.resume(w, r.Header.Get("Mcp-Session-Id"), last)
			return
		}
		w.WriteHeader(http.StatusMethodNotAllowed)
	case http.MethodDelete:
		h.mu.Lock()
		id := r.Header.Get("Mcp-Session-Id")
		delete(h.sessions, id)
		h.deleted[id] = true
		h.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	case http.MethodPost:
		h.post(w, r)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// badVersion refuses a legacy request with an unknown MCP-Protocol-Version.
func (h *httpServer) badVersion(w http.ResponseWriter, r *http.Request) bool {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && !knownRevisions[v] && !on("h05-ignore-version") {
		http.Error(w, "unsupported protocol version", http.StatusBadRequest)
		return true
	}
	return false
}

func (h *httpServer) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	var m msg
	isJSON := json.Unmarshal(body, &m) == nil
	if !isJSON && on("j05-http-400") {
		// Allowed on Streamable HTTP: an error status, no JSON-RPC body.
		http.Error(w, "malformed JSON", http.StatusBadRequest)
		return
	}
	if on("crash-on-garbage") && !isJSON {
		fmt.Fprintln(os.Stderr, "fakeserver: cannot parse input, giving up")
		os.Exit(3)
	}
	var params map[string]json.RawMessage
	_ = json.Unmarshal(m.Params, &params)
	if isJSON && m.Method != nil && isModern(params) {
		h.modern(w, r, body, m)
		return
	}
	if h.badVersion(w, r) {
		return
	}
	if r.Header.Get("Mcp-Session-Id") == "" && (!isJSON || m.Method == nil) {
		// Garbage or a body without a method, outside any session (as a
		// modern client sends it): answer it on its own.
		c := &conn{send: func(...any) {}}
		h.reply(w, c.handle(body), true, false, "", http.StatusBadRequest)
		return
	}
	isInit := isJSON && m.Method != nil && *m.Method == "initialize"
	var c *conn
	sid := r.Header.Get("Mcp-Session-Id")
	h.mu.Lock()
	switch {
	case isInit:
		h.next++
		sid = fmt.Sprintf("fake-session-%d", h.next)
		c = &conn{send: func(...any) {}}
		h.sessions[sid] = c
	case sid == "":
		h.mu.Unlock()
		http.Error(w, "missing session id", http.StatusBadRequest)
		return
	default:
		c = h.sessions[sid]
		if c == nil && on("h04-no-404") && h.deleted[sid] {
			c = &conn{send: func(...any) {}}
		}
	}
	h.mu.Unlock()
	if c == nil {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	h.reply(w, c.handle(body), isJSON && m.Method != nil && m.ID != nil, isInit, sid, http.StatusOK)
}

// modern serves a stateless 2026-07-28 POST: headers are checked against
// the body, no session is involved.
func (h *httpServer) modern(w http.ResponseWriter, r *http.Request, body []byte, m msg) {
	if p := modernHeaderProblem(r.Header.Get("Mcp-Protocol-Version"), r.Header.Get("Mcp-Method"), r.Header.Get("Mcp-Name"), body); p != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		b, _ := json.Marshal(errorResponse(m.ID, -32020, p))
		_, _ = w.Write(b)
		return
	}
	c := &conn{send: func(...any) {}}
	replies := c.handle(body)
	status := http.StatusOK
	if len(replies) == 1 {
		if rm, ok := replies[0].(map[string]any); ok {
			if e, ok := rm["error"].(map[string]any); ok {
				switch e["code"] {
				case -32601:
					status = http.StatusNotFound
				case -32602, -32022, -32020:
					status = http.StatusBadRequest
				}
			}
		}
	}
	h.reply(w, replies, m.ID != nil, false, "", status)
}

// reply writes the answers to one POST: 202 for a notification, one JSON
// object, or an SSE stream when there are several messages.
func (h *httpServer) reply(w http.ResponseWriter, replies []any, isRequest, isInit bool, sid string, status int) {
	if !isRequest && len(replies) == 0 {
		if on("h02-200") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("{}"))
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if isInit {
		w.Header().Set("Mcp-Session-Id", sid)
	}
	if !isRequest {
		status = http.StatusBadRequest
	}
	if on("sse") && isRequest && !isInit && sid != "" && len(replies) > 0 {
		h.sseReply(w, sid, replies, status)
		return
	}
	if len(replies) > 1 {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		for i, rep := range replies {
			b, _ := json.Marshal(rep)
			fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i, b)
		}
		return
	}
	ct := "application/json"
	if on("h01-text-plain") && !isInit {
		ct = "text/plain"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(status)
	b, _ := json.Marshal(replies[0])
	_, _ = w.Write(b)
}
