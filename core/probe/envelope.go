package probe

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Protocol revisions the probes know. The legacy era negotiates with
// initialize; the modern era (from 2026-07-28) is stateless and carries the
// revision on every request.
const (
	Rev20241105 = "2024-11-05"
	Rev20250326 = "2025-03-26"
	Rev20250618 = "2025-06-18"
	Rev20251125 = "2025-11-25"
	Rev20260728 = "2026-07-28"
	// LatestLegacy is the newest revision that uses initialize.
	LatestLegacy = Rev20251125
	// LatestModern is the newest released revision.
	LatestModern = Rev20260728
)

// LegacyRevisions lists the initialize-era revisions, oldest first.
var LegacyRevisions = []string{Rev20241105, Rev20250326, Rev20250618, Rev20251125}

// IsModern reports whether rev belongs to the stateless era. Revisions are
// dates, so they compare as strings.
func IsModern(rev string) bool { return rev >= Rev20260728 }

// The _meta keys of modern-era requests.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
)

// HTTP header names used by Streamable HTTP.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderLastEventID     = "Last-Event-ID"
)

// ClientName is the clientInfo name probes announce.
const ClientName = "mcptest-compliance"

// Request encodes a JSON-RPC request. A nil params is left out entirely
// rather than sent as null, which several servers reject. Like the other
// encoders it panics if id or params cannot be encoded as JSON, which only
// a programming error can cause.
func Request(id any, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	return mustJSON(m)
}

// Notification encodes a JSON-RPC notification.
func Notification(method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	return mustJSON(m)
}

// Response encodes a JSON-RPC success response, as a client sends to answer
// a server's request (a ping, say).
func Response(id json.RawMessage, result any) []byte {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// ClientInfo is the implementation info probes send.
func ClientInfo(version string) map[string]any {
	return map[string]any{"name": ClientName, "version": version}
}

// InitializeParams builds the params of a legacy initialize request. caps
// nil declares no client capabilities, which is what most checks want: a
// server must then send no sampling, elicitation or roots requests.
func InitializeParams(revision string, caps map[string]any, clientVersion string) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	return map[string]any{
		"protocolVersion": revision,
		"capabilities":    caps,
		"clientInfo":      ClientInfo(clientVersion),
	}
}

// ModernMeta builds the _meta a 2026-07-28 request carries. caps nil
// declares no client capabilities; clientVersion "" leaves clientInfo out
// (allowed, though clients SHOULD send it).
func ModernMeta(revision string, caps map[string]any, clientVersion string) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	m := map[string]any{MetaProtocolVersion: revision, MetaClientCapabilities: caps}
	if clientVersion != "" {
		m[MetaClientInfo] = ClientInfo(clientVersion)
	}
	return m
}

// WithMeta returns a copy of params with meta merged into its _meta member.
func WithMeta(params map[string]any, meta map[string]any) map[string]any {
	out := make(map[string]any, len(params)+1)
	for k, v := range params {
		out[k] = v
	}
	merged := map[string]any{}
	if old, ok := out["_meta"].(map[string]any); ok {
		for k, v := range old {
			merged[k] = v
		}
	}
	for k, v := range meta {
		merged[k] = v
	}
	out["_meta"] = merged
	return out
}

// NameOf returns what belongs in the Mcp-Name header for method: the name
// of tools/call and prompts/get, the uri of resources/read; ok is false
// for methods without one.
func NameOf(method string, params map[string]any) (name string, ok bool) {
	key := ""
	switch method {
	case "tools/call", "prompts/get":
		key = "name"
	case "resources/read":
		key = "uri"
	default:
		return "", false
	}
	s, _ := params[key].(string)
	return s, true
}

// PostHeaders returns the headers of a Streamable HTTP POST: the Accept
// both eras require, the revision header when revision is set, the session
// id when there is one, and on the modern era the Mcp-Method and Mcp-Name
// headers mirroring the body.
func PostHeaders(revision, session, method string, params map[string]any) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if revision != "" {
		h.Set(HeaderProtocolVersion, revision)
	}
	if session != "" {
		h.Set(HeaderSessionID, session)
	}
	if IsModern(revision) && method != "" {
		h.Set(HeaderMethod, method)
		if name, ok := NameOf(method, params); ok {
			h.Set(HeaderName, name)
		}
	}
	return h
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only values built by this package are encoded here.
		panic(fmt.Sprintf("probe: encode message: %v", err))
	}
	return b
}
