package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Message is one JSON-RPC message as the server wrote it. Parse fills the
// fields leniently: a message with a wrongly typed member still parses, and
// the check that cares looks at Members to judge it.
type Message struct {
	// Raw is the message's bytes exactly as received.
	Raw json.RawMessage
	// Members holds every top-level member, so checks can tell "absent"
	// from "null" and spot members that should not be there.
	Members map[string]json.RawMessage
	// ID is the raw id member; nil when absent, "null" when null.
	ID json.RawMessage
	// Method is set on requests and notifications.
	Method string
	Params json.RawMessage
	Result json.RawMessage
	// Error is the error member decoded; nil when absent or not an object.
	Error *ErrorObject
}

// ErrorObject is a JSON-RPC error member.
type ErrorObject struct {
	// Code is kept raw: the specification demands an integer, and a check
	// must be able to see a string or a fraction if that is what came.
	Code    json.RawMessage `json:"code"`
	Message json.RawMessage `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// ErrNotObject is returned by Parse for JSON that is not an object, such
// as a batch array, and for bytes that are not JSON at all.
var ErrNotObject = errors.New("not a JSON object")

// Parse decodes one message. It fails only when b is not a JSON object.
func Parse(b []byte) (*Message, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, ErrNotObject
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotObject, err)
	}
	m := &Message{Raw: append(json.RawMessage(nil), b...), Members: members}
	m.ID = members["id"]
	if raw, ok := members["method"]; ok {
		_ = json.Unmarshal(raw, &m.Method)
	}
	m.Params = members["params"]
	m.Result = members["result"]
	if raw, ok := members["error"]; ok {
		var e ErrorObject
		if json.Unmarshal(raw, &e) == nil && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
			m.Error = &e
		}
	}
	return m, nil
}

// ParseBatch decodes a JSON array of messages, as a batch response.
func ParseBatch(b []byte) ([]*Message, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, fmt.Errorf("not a JSON array: %w", err)
	}
	out := make([]*Message, 0, len(items))
	for i, it := range items {
		m, err := Parse(it)
		if err != nil {
			return nil, fmt.Errorf("batch item %d: %w", i, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// IsRequest reports whether m has a method and an id member.
func (m *Message) IsRequest() bool { return m.has("method") && m.ID != nil }

// IsNotification reports whether m has a method and no id member.
func (m *Message) IsNotification() bool { return m.has("method") && m.ID == nil }

// IsResponse reports whether m has a result or error member and no method.
func (m *Message) IsResponse() bool {
	return !m.has("method") && (m.has("result") || m.has("error"))
}

func (m *Message) has(k string) bool { _, ok := m.Members[k]; return ok }

// HasID reports whether m's id equals id once both are in canonical JSON,
// so 7 and 7.0 differ (JSON-RPC ids are compared as written) but spacing
// does not matter.
func (m *Message) HasID(id any) bool {
	if m.ID == nil {
		return false
	}
	want, err := json.Marshal(id)
	if err != nil {
		return false
	}
	return bytes.Equal(compact(m.ID), want)
}

// IDIsNull reports whether the id member is present and null.
func (m *Message) IDIsNull() bool {
	return m.ID != nil && bytes.Equal(bytes.TrimSpace(m.ID), []byte("null"))
}

// ErrorCode returns the error code when m is an error response with an
// integer code.
func (m *Message) ErrorCode() (int64, bool) {
	if m.Error == nil {
		return 0, false
	}
	return IntCode(m.Error.Code)
}

// ErrorMessage returns the error's message text, or "".
func (m *Message) ErrorMessage() string {
	if m.Error == nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(m.Error.Message, &s)
	return s
}

// IntCode decodes a JSON number that must be an integer.
func IntCode(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	// json.Number also accepts a quoted number; a string is not a number.
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var n json.Number
	if dec.Decode(&n) != nil {
		return 0, false
	}
	v, err := n.Int64()
	return v, err == nil
}

func compact(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return bytes.TrimSpace(raw)
	}
	return buf.Bytes()
}
