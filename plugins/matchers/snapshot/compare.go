package main

import (
	"fmt"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// encodeSnapshot is the file form of a value: indented JSON, object keys
// sorted, numbers as the server wrote them, no HTML escaping (a snapshot
// is read by people), and a final newline.
func encodeSnapshot(v any) ([]byte, error) {
	b, err := jsonvalue.Encode(v, "  ")
	if err != nil {
		return nil, fmt.Errorf("encode snapshot: %w", err)
	}
	return append(b, '\n'), nil
}
