package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// maxToolCalls bounds the tools a check calls.
const maxToolCalls = 10

// toolInfo is one entry of tools/list, kept raw where checks need it.
type toolInfo struct {
	Name        string
	Raw         json.RawMessage
	Input       json.RawMessage
	Output      json.RawMessage
	ReadOnly    bool
	Destructive bool
}

// decodeTools reads tools/list entries; entries that are not objects keep
// only their raw text.
func decodeTools(items []json.RawMessage) []toolInfo {
	out := make([]toolInfo, 0, len(items))
	for _, it := range items {
		t := toolInfo{Raw: it}
		if m, ok := object(it); ok {
			t.Name, _ = str(m, "name")
			t.Input = m["inputSchema"]
			t.Output = m["outputSchema"]
			if ann, ok := object(m["annotations"]); ok {
				t.ReadOnly = boolMember(ann, "readOnlyHint")
				t.Destructive = boolMember(ann, "destructiveHint")
			}
		}
		out = append(out, t)
	}
	return out
}

func boolMember(m map[string]json.RawMessage, key string) bool {
	var b bool
	_ = json.Unmarshal(m[key], &b)
	return b
}

// safeTools picks the tools a check may call: the server itself says they
// only read (readOnlyHint) and are not destructive. Others are never
// called, whatever they are.
func safeTools(tools []toolInfo) []toolInfo {
	var out []toolInfo
	for _, t := range tools {
		if t.Name != "" && t.ReadOnly && !t.Destructive && len(out) < maxToolCalls {
			out = append(out, t)
		}
	}
	return out
}

// listedTools lists the server's tools on s.
func listedTools(ctx context.Context, s *Session) ([]toolInfo, error) {
	items, _, err := listAll(ctx, s, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	return decodeTools(items), nil
}

// toolsToCall opens a session and returns it with the tools a check may
// call, or not applicable when there are none or calls are disabled.
func toolsToCall(ctx context.Context, e *Env) (*Session, []toolInfo, error) {
	if e.opts.NoToolCalls {
		return nil, nil, notApplicable("tool calls are disabled (--no-tool-calls)")
	}
	s, err := e.connect(ctx)
	if err != nil {
		return nil, nil, err
	}
	tools, err := listedTools(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	safe := safeTools(tools)
	if len(safe) == 0 {
		return nil, nil, notApplicable("no tool is annotated readOnlyHint: true without destructiveHint, so none is called")
	}
	return s, safe, nil
}

// exampleArgs builds arguments that satisfy the simple parts of an input
// schema: every required property gets its default, const, first enum
// value or example, or a plain value of its type.
func exampleArgs(schema json.RawMessage) map[string]any {
	v, _ := exampleValue(schema, 0).(map[string]any)
	if v == nil {
		v = map[string]any{}
	}
	return v
}

func exampleValue(schema json.RawMessage, depth int) any {
	m, ok := object(schema)
	if !ok || depth > 6 {
		return "mcptest"
	}
	for _, k := range []string{"default", "const"} {
		if raw, ok := m[k]; ok {
			var v any
			if json.Unmarshal(raw, &v) == nil {
				return v
			}
		}
	}
	for _, k := range []string{"enum", "examples"} {
		var vs []any
		if json.Unmarshal(m[k], &vs) == nil && len(vs) > 0 {
			return vs[0]
		}
	}
	switch schemaType(m) {
	case "object":
		out := map[string]any{}
		props, _ := object(m["properties"])
		var required []string
		_ = json.Unmarshal(m["required"], &required)
		for _, name := range required {
			out[name] = exampleValue(props[name], depth+1)
		}
		return out
	case "array":
		var minItems int
		_ = json.Unmarshal(m["minItems"], &minItems)
		out := []any{}
		for range min(minItems, 3) {
			out = append(out, exampleValue(m["items"], depth+1))
		}
		return out
	case "integer", "number":
		var lo float64
		if json.Unmarshal(m["minimum"], &lo) == nil {
			return lo
		}
		if json.Unmarshal(m["exclusiveMinimum"], &lo) == nil {
			return lo + 1
		}
		return 0
	case "boolean":
		return false
	case "null":
		return nil
	}
	var minLen int
	_ = json.Unmarshal(m["minLength"], &minLen)
	return strings.Repeat("x", max(0, minLen-len("mcptest"))) + "mcptest"
}

// schemaType returns a schema's type, the first non-null one of a list.
func schemaType(m map[string]json.RawMessage) string {
	var one string
	if json.Unmarshal(m["type"], &one) == nil {
		return one
	}
	var many []string
	_ = json.Unmarshal(m["type"], &many)
	for _, t := range many {
		if t != "null" {
			return t
		}
	}
	return ""
}

// wrongValue returns a value of another type than the property's, and a
// description of the swap; ok is false when the type is unknown.
func wrongValue(prop json.RawMessage) (any, string, bool) {
	m, ok := object(prop)
	if !ok {
		return nil, "", false
	}
	switch schemaType(m) {
	case "string":
		return 12345, "a number for a string", true
	case "integer", "number":
		return "not-a-number", "a string for a number", true
	case "boolean":
		return "not-a-boolean", "a string for a boolean", true
	case "array":
		return "not-an-array", "a string for an array", true
	case "object":
		return "not-an-object", "a string for an object", true
	}
	return nil, "", false
}

// progressToken is the token U03 sends with call n.
func progressToken(n int) string { return fmt.Sprintf("mcptest-progress-%d", n) }
