package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// conn is the state of one client connection.
type conn struct {
	// send writes messages the server starts itself (requests,
	// notifications) outside the reply to a request.
	send        func(msgs ...any)
	initialized bool
}

type msg struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

func response(id json.RawMessage, result any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": result}
}

func errorResponse(id json.RawMessage, code int, message string) map[string]any {
	if id == nil {
		id = json.RawMessage("null")
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}}
}

// handle answers one raw message (or batch) and returns the replies.
func (c *conn) handle(line []byte) []any {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if on("drop-batch") {
			return nil
		}
		if on("process-batch") {
			// Answer each member, as 2025-03-26 servers did.
			var batch []json.RawMessage
			_ = json.Unmarshal(trimmed, &batch)
			var out []any
			for _, item := range batch {
				out = append(out, c.handle(item)...)
			}
			return out
		}
		return []any{errorResponse(nil, -32600, "batches are not supported")}
	}
	var m msg
	if err := json.Unmarshal(trimmed, &m); err != nil {
		if on("ignore-garbage") {
			return nil
		}
		id := json.RawMessage("null")
		if on("parse-error-id") {
			id = json.RawMessage("0")
		}
		return []any{errorResponse(id, -32700, "parse error")}
	}
	isNotification := m.ID == nil
	if m.Method == nil {
		if m.Result != nil || m.Error != nil {
			return nil // a response to one of our requests
		}
		if on("lenient") {
			return nil
		}
		return []any{errorResponse(m.ID, -32600, "no method")}
	}
	if string(m.JSONRPC) != `"2.0"` {
		return []any{errorResponse(m.ID, -32600, "jsonrpc must be 2.0")}
	}
	if string(m.ID) == "null" {
		if on("lenient") {
			return nil
		}
		return []any{errorResponse(nil, -32600, "null id")}
	}
	if isNotification {
		c.notification(*m.Method)
		if on("answer-notifications") || (on("answer-cancel") && *m.Method == "notifications/cancelled") {
			return []any{response(json.RawMessage("null"), map[string]any{})}
		}
		return nil
	}
	return c.request(m.ID, *m.Method, m.Params)
}

func (c *conn) notification(method string) {
	if method != "notifications/initialized" {
		return
	}
	c.initialized = true
	if on("sampling") {
		c.send(map[string]any{"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage",
			"params": map[string]any{"messages": []any{}, "maxTokens": 10}})
	}
}

// request answers one request, statelessly when it carries modern _meta.
func (c *conn) request(id json.RawMessage, method string, params json.RawMessage) []any {
	var p map[string]json.RawMessage
	if len(params) > 0 && json.Unmarshal(params, &p) != nil {
		return []any{errorResponse(id, -32602, "params must be an object")}
	}
	if isModern(p) {
		return modernRequest(c, id, method, p)
	}
	return c.dispatch(id, method, p, false)
}

// dispatch serves a method; modern selects the 2026-07-28 behaviours.
func (c *conn) dispatch(id json.RawMessage, method string, p map[string]json.RawMessage, modern bool) []any {
	switch method {
	case "initialize":
		return c.initialize(id, p)
	case "ping":
		if on("ping-result") {
			return []any{response(id, map[string]any{"pong": true})}
		}
		if on("string-ids") && len(id) > 0 && id[0] != '"' {
			// The id comes back as a string: 7 becomes "7".
			return []any{response(json.RawMessage(`"`+string(id)+`"`), map[string]any{})}
		}
		if on("bad-envelope") {
			return []any{map[string]any{"jsonrpc": "1.0", "id": id, "result": map[string]any{}}}
		}
		return []any{response(id, map[string]any{})}
	case "tools/list":
		return toolsList(id, p)
	case "tools/call":
		return c.toolsCall(id, p)
	case "resources/list":
		if on("broken-resources") {
			return []any{errorResponse(id, -32601, "no resources after all")}
		}
		return []any{response(id, map[string]any{"resources": []any{map[string]any{"uri": readmeURI, "name": "readme", "mimeType": "text/plain"}}})}
	case "resources/templates/list":
		tpl := "fake://items/{id}"
		if on("bad-template") {
			tpl = "fake://items/{id"
		}
		return []any{response(id, map[string]any{"resourceTemplates": []any{map[string]any{"uriTemplate": tpl, "name": "item"}}})}
	case "resources/read":
		return readResource(id, p, modern)
	case "resources/subscribe", "resources/unsubscribe":
		if on("subscribe-broken") {
			return []any{errorResponse(id, -32601, "no subscriptions")}
		}
		return []any{response(id, map[string]any{})}
	case "prompts/list":
		return []any{response(id, map[string]any{"prompts": []any{map[string]any{"name": "greet",
			"arguments": []any{map[string]any{"name": "name", "required": true}}}}})}
	case "prompts/get":
		return getPrompt(id, p)
	case "logging/setLevel":
		var level string
		_ = json.Unmarshal(p["level"], &level)
		switch level {
		case "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency":
		default:
			if !on("accept-any-level") {
				return []any{errorResponse(id, -32602, "unknown level "+level)}
			}
		}
		return []any{response(id, map[string]any{})}
	case "completion/complete":
		n := 2
		if on("too-many-completions") {
			n = 101
		}
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("v%d", i)
		}
		return []any{response(id, map[string]any{"completion": map[string]any{"values": values, "hasMore": false}})}
	}
	if on("unknown-method-result") {
		return []any{response(id, map[string]any{})}
	}
	return []any{errorResponse(id, -32601, "method not found: "+method)}
}

var revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

func (c *conn) initialize(id json.RawMessage, p map[string]json.RawMessage) []any {
	var asked string
	_ = json.Unmarshal(p["protocolVersion"], &asked)
	chosen := "2025-11-25"
	for _, r := range revisions {
		if r == asked {
			chosen = asked
		}
	}
	switch {
	case on("echo-unknown"):
		chosen = asked
	case on("bad-counter-offer") && asked == "2025-03-26":
		chosen = "2024-11-05"
	case on("bad-counter-offer"):
		chosen = "2025-03-26"
	}
	info := map[string]any{"name": "fakeserver", "version": "0.0.1"}
	if on("no-server-info") {
		delete(info, "version")
	}
	if on("empty-version") {
		info["version"] = ""
	}
	out := []any{response(id, map[string]any{"protocolVersion": chosen, "capabilities": capabilities(), "serverInfo": info})}
	if on("early-request") {
		out = append(out, map[string]any{"jsonrpc": "2.0", "id": "early-1", "method": "roots/list"})
	}
	return out
}

const readmeURI = "fake://readme"

// capabilities are what the fake declares.
func capabilities() map[string]any {
	caps := map[string]any{
		"tools":       map[string]any{},
		"resources":   map[string]any{"subscribe": true},
		"prompts":     map[string]any{},
		"logging":     map[string]any{},
		"completions": map[string]any{},
	}
	if on("hide-prompts") {
		delete(caps, "prompts")
	}
	return caps
}

func readResource(id json.RawMessage, p map[string]json.RawMessage, modern bool) []any {
	var uri string
	if err := json.Unmarshal(p["uri"], &uri); err != nil {
		if on("invalid-params-internal") {
			return []any{errorResponse(id, -32603, "internal error")}
		}
		return []any{errorResponse(id, -32602, "uri must be a string")}
	}
	switch {
	case uri == readmeURI && on("bad-contents"):
		return []any{response(id, map[string]any{"contents": []any{map[string]any{"uri": uri}}})}
	case uri == readmeURI:
		return []any{response(id, map[string]any{"contents": []any{map[string]any{"uri": uri, "text": "hello"}}})}
	case strings.HasPrefix(uri, "fake://items/"):
		return []any{response(id, map[string]any{"contents": []any{map[string]any{"uri": uri, "blob": "aGVsbG8="}}})}
	case on("missing-resource-empty"):
		return []any{response(id, map[string]any{"contents": []any{}})}
	case modern && !on("s11-old-code"):
		return []any{errorResponse(id, -32602, "resource not found: "+uri)}
	}
	return []any{errorResponse(id, -32002, "resource not found: "+uri)}
}

func getPrompt(id json.RawMessage, p map[string]json.RawMessage) []any {
	var name string
	_ = json.Unmarshal(p["name"], &name)
	if name != "greet" {
		return []any{errorResponse(id, -32602, "unknown prompt "+name)}
	}
	var args map[string]string
	_ = json.Unmarshal(p["arguments"], &args)
	if args["name"] == "" {
		if on("prompt-internal-error") {
			return []any{errorResponse(id, -32603, "something broke")}
		}
		return []any{errorResponse(id, -32602, "missing argument name")}
	}
	return []any{response(id, map[string]any{"messages": []any{map[string]any{"role": "user",
		"content": map[string]any{"type": "text", "text": "Hello " + args["name"]}}}})}
}
