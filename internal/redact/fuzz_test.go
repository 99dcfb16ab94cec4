package redact

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRedact checks the two promises of the redactor on random JSON, with
// an oracle built on encoding/json rather than on the redactor's decoder:
//   - a secret planted in a document, escaped one to three levels deep
//     with random forms, is gone from every decoded string afterwards;
//   - a valid document stays valid, and one the oracle finds no secret in
//     comes back byte for byte.
func FuzzRedact(f *testing.F) {
	f.Add(`{"a":[1,2.5e3,"x\/y"],"b":null}`, "tok/3f9a-é", uint64(1))
	f.Add(`["\u00e9\ud83d\ude00", {"k":"v"}]`, "sk-😀-key", uint64(2))
	f.Add(`"plain"`, `p"w\d/x`, uint64(3))
	f.Add(`{"n":12345678}`, "12345678", uint64(4))
	f.Fuzz(func(t *testing.T, doc, secret string, seed uint64) {
		if len(secret) < MinLen || !utf8.ValidString(secret) || !json.Valid([]byte(doc)) {
			t.Skip()
		}
		r := New(secret)

		// Untouched unless a value holds the secret.
		out := r.Bytes([]byte(doc))
		if !json.Valid(out) {
			t.Fatalf("valid JSON became invalid:\n in  %s\n out %s", doc, out)
		}
		if !oracleHolds([]byte(doc), secret, MaxDepth+1) && !bytes.Equal(out, []byte(doc)) {
			t.Fatalf("changed a document without the secret:\n in  %s\n out %s", doc, out)
		}

		// Planted, then gone.
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		depth := 1 + rng.IntN(3)
		inner := `{"prefix":"ab` + escapeAll(secret, rng) + `cd"}`
		for range depth - 1 {
			inner = `{"doc":` + doc + `,"wrapped":"` + escapeAll(inner, rng) + `"}`
		}
		out = r.Bytes([]byte(inner))
		if !json.Valid(out) {
			t.Fatalf("masked document is invalid:\n in  %s\n out %s", inner, out)
		}
		if oracleHolds(out, secret, 4) {
			t.Fatalf("secret survived:\n in  %s\n out %s", inner, out)
		}
	})
}

// oracleHolds reports whether a JSON document holds secret in a string, a
// key or a number, looking into strings that are JSON documents or string
// bodies themselves, down to depth.
func oracleHolds(doc []byte, secret string, depth int) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	return valueHolds(v, secret, depth)
}

func valueHolds(v any, secret string, depth int) bool {
	switch v := v.(type) {
	case string:
		return stringHolds(v, secret, depth)
	case json.Number:
		return string(v) == secret
	case []any:
		for _, e := range v {
			if valueHolds(e, secret, depth) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if stringHolds(k, secret, depth) || valueHolds(e, secret, depth) {
				return true
			}
		}
	}
	return false
}

func stringHolds(s, secret string, depth int) bool {
	if strings.Contains(s, secret) {
		return true
	}
	if depth == 0 {
		return false
	}
	if json.Valid([]byte(s)) && oracleHolds([]byte(s), secret, depth-1) {
		return true
	}
	var body string
	if json.Unmarshal([]byte(`"`+s+`"`), &body) == nil && body != s {
		return stringHolds(body, secret, depth-1)
	}
	return false
}
