package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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
		return string(encodeJSON(v.v))
	}
	return buf.String()
}

// textNote explains, for a failure, that a non-string value was matched as
// its JSON text; it is empty for strings.
func (v value) textNote() string {
	if v.isString() {
		return ""
	}
	return fmt.Sprintf("the actual value is %s, so its compact JSON text was matched", describe(v.v))
}

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number.
func decodeJSON(raw []byte) (any, error) {
	// Most values matchers see are strings (tool text); they need no
	// number handling, and json.Unmarshal skips the Decoder's buffers.
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, fmt.Errorf("decode JSON: %w", err)
		}
		return s, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("decode JSON: unexpected data after the value")
	}
	return v, nil
}

// encodeJSON encodes v compactly without HTML escaping.
func encodeJSON(v any) json.RawMessage {
	return encodeWith(v, "")
}

// prettyJSON encodes v indented by two spaces, object keys sorted.
func prettyJSON(v any) string {
	return string(encodeWith(v, "  "))
}

func encodeWith(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		b, _ := json.Marshal(fmt.Sprint(v))
		return b
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// equalJSON reports structural JSON equality: numbers compare by value,
// object key order does not matter, arrays compare in order.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && numbersEqual(a, bn)
	case []any:
		ba, ok := b.([]any)
		if !ok || len(a) != len(ba) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], ba[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equalJSON(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// numbersEqual compares two JSON numbers exactly by value, with no float
// rounding, so big integers and long decimals compare digit for digit.
func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	an, aok := canonicalNumber(string(a))
	bn, bok := canonicalNumber(string(b))
	return aok && bok && an == bn
}

// canonical is a JSON number reduced to sign, significant digits (no
// leading or trailing zeros) and a power of ten: value = digits × 10^exp.
// Zero has no digits and is never negative.
type canonical struct {
	neg    bool
	digits string
	exp    int64
}

// canonicalNumber reduces a JSON number to its canonical form. It reports
// false for text it cannot read, including exponents beyond 32 bits.
func canonicalNumber(s string) (canonical, bool) {
	var c canonical
	if strings.HasPrefix(s, "-") {
		c.neg = true
		s = s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		e, err := strconv.ParseInt(strings.TrimPrefix(expText, "+"), 10, 32)
		if err != nil {
			return canonical{}, false
		}
		c.exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	for _, r := range digits {
		if r < '0' || r > '9' {
			return canonical{}, false
		}
	}
	c.exp -= int64(len(frac))
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return canonical{}, true
	}
	trimmed := strings.TrimRight(digits, "0")
	c.exp += int64(len(digits) - len(trimmed))
	c.digits = trimmed
	return c, true
}

// describe names the JSON type of v with an article, for messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
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
