// Package jsonvalue is how the matcher plugins read, compare and write JSON
// values: exactly one value per text, numbers kept as written
// (json.Number), structural equality with numbers compared by value, and
// encoding without HTML escaping.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// errTrailingData is the error for text that holds more than one value.
var errTrailingData = errors.New("unexpected data after the value")

// Decode decodes exactly one JSON value, keeping numbers as json.Number.
// Surrounding white space is allowed; anything else after the value is an
// error. Errors carry the decoder's own text, with no prefix.
func Decode(raw []byte) (any, error) {
	// Most values matchers see are plain strings (tool text) and literal
	// numbers; decodeScalar reads those without encoding/json. Text that
	// fails both fast paths goes through the Decoder, so the errors are
	// the Decoder's either way.
	t := trimSpace(raw)
	if v, ok := decodeScalar(t); ok {
		return v, nil
	}
	// A string with escapes: json.Unmarshal skips the Decoder's buffers.
	if len(t) > 0 && t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return s, nil
		}
	}
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		if v, ok := parseFast(t); ok {
			return v, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errTrailingData
	}
	return v, nil
}

// trimSpace trims JSON white space (space, tab, CR, LF), which is all the
// Decoder skips around a value.
func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// Encode encodes v as JSON without HTML escaping and without a final
// newline: compact when indent is empty, otherwise one member per line
// indented by indent. Object keys come out sorted and json.Number values
// as written.
func Encode(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Compact is v as compact JSON (see Encode). It never fails: a value
// encoding/json cannot encode becomes a JSON string of its fmt form, which
// is what a failure message wants.
func Compact(v any) json.RawMessage {
	return encodeOrString(v, "")
}

// Pretty is v as JSON indented by two spaces (see Encode and Compact).
func Pretty(v any) string {
	return string(encodeOrString(v, "  "))
}

func encodeOrString(v any, indent string) []byte {
	b, err := Encode(v, indent)
	if err != nil {
		b, _ = json.Marshal(fmt.Sprint(v))
	}
	return b
}

// Describe names the JSON type of a decoded value with an article, for
// messages: "null", "a boolean", "a number", "a string", "an array", "an
// object". Numbers may be json.Number or float64 (a plain json.Unmarshal).
func Describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
