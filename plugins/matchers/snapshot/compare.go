package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// decodeValue decodes exactly one JSON value, numbers kept as written.
func decodeValue(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the value")
	}
	return v, nil
}

// encodeSnapshot is the file form of a value: indented JSON, object keys
// sorted, numbers as the server wrote them, no HTML escaping (a snapshot
// is read by people), and a final newline.
func encodeSnapshot(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode snapshot: %w", err)
	}
	return buf.Bytes(), nil
}

// equal reports structural JSON equality: object key order does not
// matter, arrays compare in order, numbers compare by value.
func equal(a, b any) bool {
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
		return ok && sameNumber(a, bn)
	case []any:
		ba, ok := b.([]any)
		if !ok || len(a) != len(ba) {
			return false
		}
		for i := range a {
			if !equal(a[i], ba[i]) {
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
			if bv, ok := bm[k]; !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// maxExponent bounds the exponents compared exactly: big.Rat would build
// a number with that many digits, so 1e999999999 from a hostile server
// must not reach it. Such numbers compare by their text instead.
const maxExponent = 4096

// sameNumber compares two JSON numbers exactly, with no float rounding.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, okA := exactNumber(a)
	y, okB := exactNumber(b)
	return okA && okB && x.Cmp(y) == 0
}

// exactNumber reads a JSON number as an exact rational.
func exactNumber(n json.Number) (*big.Rat, bool) {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}
