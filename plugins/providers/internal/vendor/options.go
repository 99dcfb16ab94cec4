package vendor

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
)

// Options are a request's provider options: stream says whether to use the
// streaming API, and fields are the other top-level fields to add to the
// vendor request, in key order.
type Options struct {
	Stream bool
	Fields map[string]any
}

// ParseOptions reads a request's options object.
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return o, nil
	}
	if err := json.Unmarshal(raw, &o.Fields); err != nil {
		return o, fmt.Errorf("options must be a JSON object: %w", err)
	}
	if s, ok := o.Fields["stream"]; ok {
		b, isBool := s.(bool)
		if !isBool {
			return o, fmt.Errorf("options.stream must be true or false")
		}
		o.Stream = b
		delete(o.Fields, "stream")
	}
	return o, nil
}

// PartText is a non-image part as text: structured values as compact JSON.
func PartText(p sdk.Part) string {
	if p.Type == sdk.PartJSON {
		return string(p.JSON)
	}
	return p.Text
}
