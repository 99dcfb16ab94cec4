package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// decodeValue decodes the actual value into the Go values cel-go's default
// adapter turns into CEL values: map[string]any, []any, string, bool, nil,
// int64, uint64 and float64.
func decodeValue(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("no value")
	}
	// Numbers arrive as text (json.Number), so integers are converted
	// exactly instead of passing through float64 first.
	v, err := jsonvalue.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	return convertNumbers(v), nil
}

// convertNumbers replaces every json.Number in v with a CEL-ready number,
// rewriting maps and slices in place so a large value is not copied.
// json.Number must not reach cel-go: its adapter would see a string.
func convertNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		return celNumber(v)
	case map[string]any:
		for k, e := range v {
			v[k] = convertNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = convertNumbers(e)
		}
	}
	return v
}

// celNumber converts a JSON number by how it is written: an integer literal
// becomes int64, or uint64 when only that holds it; anything with a
// fraction or an exponent, and integers too large for both, become
// float64 (the last lose digits; CEL has no larger integer).
func celNumber(n json.Number) any {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u
		}
	}
	// The decoder only produces valid JSON numbers, so the only error left
	// is a range error, where ParseFloat still returns ±Inf.
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
