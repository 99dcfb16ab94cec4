package jsonx

import (
	"bytes"
	"encoding/json"
)

// Encode encodes v compactly without escaping <, > and &: arguments
// are sent to a server, not embedded in HTML.
func Encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
