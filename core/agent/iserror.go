package agent

import (
	"bytes"
	"encoding/json"
)

// WithIsError returns a tools/call result with "isError": false written
// in when the server left the key out (the spec makes it optional and
// many SDKs omit a false flag), so that tool_results[i].result.isError
// reads the same as tool_results[i].isError instead of failing as a
// missing key. Anything but a JSON object, or an object that has the key,
// is returned unchanged.
func WithIsError(raw json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) < 2 || trimmed[0] != '{' {
		return raw
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(trimmed, &keys) != nil {
		return raw
	}
	if _, ok := keys["isError"]; ok {
		return raw
	}
	body := bytes.TrimSpace(trimmed[1:])
	out := make([]byte, 0, len(trimmed)+18)
	out = append(out, `{"isError":false`...)
	if len(body) > 0 && body[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body...)
}
