package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Canonical re-encodes raw with sorted object keys, number literals as
// written and no HTML escaping, so two recordings of the same value
// compare equal byte for byte; empty and absent input stay empty. Cassette
// exchanges and recorded model exchanges both match on this form.
func Canonical(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	v, err := DecodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// DecodeNumbers decodes exactly one JSON value with numbers kept as
// json.Number (their literals survive a re-encode) and refuses trailing
// data after it.
func DecodeNumbers(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}
