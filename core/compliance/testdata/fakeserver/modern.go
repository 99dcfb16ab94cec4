package main

import (
	"encoding/json"
	"strings"
)

const modernRev = "2026-07-28"

// modernMeta is the part of _meta a modern request carries.
type modernMeta struct {
	Version      *string         `json:"io.modelcontextprotocol/protocolVersion"`
	Capabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
}

func metaOf(p map[string]json.RawMessage) (modernMeta, bool) {
	var m modernMeta
	raw, ok := p["_meta"]
	if !ok || json.Unmarshal(raw, &m) != nil {
		return m, false
	}
	return m, m.Version != nil || m.Capabilities != nil
}

// isModern reports whether a request carries modern per-request _meta.
func isModern(p map[string]json.RawMessage) bool {
	_, ok := metaOf(p)
	return ok
}

var listMethods = map[string]bool{"tools/list": true, "resources/list": true, "resources/templates/list": true, "prompts/list": true}

// modernRequest serves a 2026-07-28 request: validate _meta, then answer
// with resultType and caching hints.
func modernRequest(c *conn, id json.RawMessage, method string, p map[string]json.RawMessage) []any {
	m, _ := metaOf(p)
	if !on("s03-no-meta-check") {
		if m.Version == nil {
			return []any{errorResponse(id, -32602, "missing _meta protocolVersion")}
		}
		if m.Capabilities == nil {
			return []any{errorResponse(id, -32602, "missing _meta clientCapabilities")}
		}
	}
	if m.Version != nil && *m.Version != modernRev {
		if on("s04-wrong-code") {
			return []any{errorResponse(id, -32602, "bad version")}
		}
		e := errorResponse(id, -32022, "unsupported protocol version")
		e["error"].(map[string]any)["data"] = map[string]any{"supported": []string{modernRev}, "requested": *m.Version}
		return []any{e}
	}
	var out []any
	if method == "server/discover" {
		res := map[string]any{"capabilities": capabilities(), "serverInfo": map[string]any{"name": "fakeserver", "version": "0.0.1"},
			"ttlMs": 0, "cacheScope": "public"}
		if !on("s01-no-versions") {
			res["supportedVersions"] = []string{modernRev, "2025-11-25"}
		}
		out = []any{response(id, res)}
	} else {
		out = c.dispatch(id, method, p, true)
	}
	if on("s06-request") && method == "tools/list" {
		out = append([]any{map[string]any{"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"}}, out...)
	}
	for _, r := range out {
		rm, ok := r.(map[string]any)
		if !ok {
			continue
		}
		res, ok := rm["result"].(map[string]any)
		if !ok {
			continue
		}
		if !on("s02-no-result-type") {
			res["resultType"] = "complete"
		}
		if listMethods[method] {
			res["ttlMs"] = 0
			res["cacheScope"] = "private"
			if on("s08-bad-scope") {
				res["cacheScope"] = "shared"
			}
		}
	}
	return out
}

// modernHeaderProblem checks the standard headers of a modern POST against
// its body; "" means they match.
func modernHeaderProblem(headerVersion, headerMethod, headerName string, body []byte) string {
	var m struct {
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method == "" {
		return ""
	}
	meta, _ := metaOf(m.Params)
	if meta.Version != nil && headerVersion != *meta.Version {
		return "MCP-Protocol-Version does not match _meta"
	}
	if on("s05-no-header-check") {
		return ""
	}
	if headerMethod != m.Method {
		return "Mcp-Method does not match the body"
	}
	key := ""
	switch m.Method {
	case "tools/call", "prompts/get":
		key = "name"
	case "resources/read":
		key = "uri"
	}
	if key != "" {
		var want string
		_ = json.Unmarshal(m.Params[key], &want)
		if strings.TrimSpace(headerName) != want {
			return "Mcp-Name does not match the body"
		}
	}
	return ""
}
