package main

import (
	"encoding/json"
)

// readOnly is the annotation that lets the compliance checks call a tool.
var readOnly = map[string]any{"readOnlyHint": true, "destructiveHint": false}

// tools are the listed tools, two per page.
func tools() []any {
	echoInput := map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}}
	if on("bad-schema") {
		echoInput = map[string]any{"type": "string"}
	}
	echoName := "echo"
	if on("bad-name") {
		echoName = "echo tool"
	}
	all := []any{
		map[string]any{"name": echoName, "inputSchema": echoInput, "annotations": readOnly,
			"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"echo": map[string]any{"type": "string"}}, "required": []string{"echo"}}},
		map[string]any{"name": "progress", "inputSchema": map[string]any{"type": "object"}, "annotations": readOnly},
		map[string]any{"name": "image", "inputSchema": map[string]any{"type": "object"}, "annotations": readOnly},
		map[string]any{"name": "delete_everything", "inputSchema": map[string]any{"type": "object"},
			"annotations": map[string]any{"destructiveHint": true}},
	}
	if on("slow-tool") {
		// A safe tool that never answers, like a long-running operation.
		all = append(all, map[string]any{"name": "slow", "inputSchema": map[string]any{"type": "object"}, "annotations": readOnly})
	}
	return all
}

func toolsList(id json.RawMessage, p map[string]json.RawMessage) []any {
	var cursor string
	_ = json.Unmarshal(p["cursor"], &cursor)
	all := tools()
	switch {
	case cursor == "" || (cursor != "page2" && on("ignore-cursor")):
		return []any{response(id, map[string]any{"tools": all[:2], "nextCursor": "page2"})}
	case cursor == "page2" && on("cursor-loop"):
		return []any{response(id, map[string]any{"tools": all[2:], "nextCursor": "page2"})}
	case cursor == "page2":
		return []any{response(id, map[string]any{"tools": all[2:]})}
	}
	return []any{errorResponse(id, -32602, "invalid cursor")}
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func (c *conn) toolsCall(id json.RawMessage, p map[string]json.RawMessage) []any {
	var name string
	if err := json.Unmarshal(p["name"], &name); err != nil || name == "" {
		if on("invalid-params-internal") {
			return []any{errorResponse(id, -32603, "internal error")}
		}
		return []any{errorResponse(id, -32602, "a tool name is required")}
	}
	var args map[string]json.RawMessage
	_ = json.Unmarshal(p["arguments"], &args)
	var meta struct {
		Token json.RawMessage `json:"progressToken"`
	}
	_ = json.Unmarshal(p["_meta"], &meta)
	switch name {
	case "echo", "echo tool":
		var msg string
		if err := json.Unmarshal(args["message"], &msg); err != nil && !on("accept-anything") {
			return []any{response(id, map[string]any{"content": []any{text("message must be a string")}, "isError": true})}
		}
		sc := map[string]any{"echo": msg}
		if on("bad-structured") {
			sc = map[string]any{"echo": 42}
		}
		return []any{response(id, map[string]any{"content": []any{text(msg)}, "structuredContent": sc})}
	case "progress":
		var out []any
		steps := []float64{1, 2}
		if on("progress-backwards") {
			steps = []float64{2, 1}
		}
		if meta.Token != nil {
			for _, s := range steps {
				out = append(out, map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
					"params": map[string]any{"progressToken": meta.Token, "progress": s, "total": 2}})
			}
		}
		return append(out, response(id, map[string]any{"content": []any{text("done")}}))
	case "slow":
		return nil
	case "image":
		data := "iVBORw0KGgo="
		if on("bad-image") {
			data = "not base64!"
		}
		return []any{response(id, map[string]any{"content": []any{map[string]any{"type": "image", "data": data, "mimeType": "image/png"}}})}
	}
	if on("unknown-tool-iserror") {
		return []any{response(id, map[string]any{"content": []any{text("no such tool")}, "isError": true})}
	}
	return []any{errorResponse(id, -32602, "unknown tool "+name)}
}
