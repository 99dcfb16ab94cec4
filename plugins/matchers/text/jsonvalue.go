package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// value is a decoded actual value together with the JSON it came from.
type value struct {
	v   any
	raw json.RawMessage
}

// decodeValue decodes an actual value.
func decodeValue(raw json.RawMessage) (value, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return value{}, errors.New("no value")
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return value{}, err
	}
	return value{v: v, raw: raw}, nil
}

// isString reports whether the value is a JSON string.
func (v value) isString() bool {
	_, ok := v.v.(string)
	return ok
}

// text is the value as the string matchers see it: a string as it is,
// anything else as its compact JSON text.
func (v value) text() string {
	if s, ok := v.v.(string); ok {
		return s
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, v.raw); err != nil {
		// raw decoded successfully, so it is valid JSON; re-encode anyway.
		return string(jsonvalue.Compact(v.v))
	}
	return buf.String()
}

// textNote explains, for a failure, that a non-string value was matched as
// its JSON text; it is empty for strings.
func (v value) textNote() string {
	if v.isString() {
		return ""
	}
	return fmt.Sprintf("the actual value is %s, so its compact JSON text was matched", jsonvalue.Describe(v.v))
}

// decodeJSON decodes exactly one JSON value (see jsonvalue.Decode), its
// errors prefixed for the messages that quote them.
func decodeJSON(raw []byte) (any, error) {
	v, err := jsonvalue.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	return v, nil
}
