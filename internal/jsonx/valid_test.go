package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

// embeddableSlow is what Embeddable was: two passes, encoding/json's.
func embeddableSlow(b []byte) bool {
	return Depth(b) <= MaxEmbedDepth && json.Valid(b)
}

// validCorpus holds valid and invalid documents of every kind.
var validCorpus = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`, `-12.5e+3`,
	`""`, `"a"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u2028"`, `"\u00g9"`, `"\x"`, "\"ctl \x01\"", "\"tab\t\"", "\"bad \xff utf8\"", `"open`,
	`[]`, `[ ]`, `[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{ }`, `{"a":1}`, `{"a":1,}`, `{"a" : [1, {"b": null}] }`, `{a:1}`, `{"a"}`, `{"a":}`,
	`{"a":1}{}`, `1 2`, ` {"x":"y"} `, "\n[\r\t1\n]\n", `[1]]`, `[[1]`, `{"a":1]`, `[1}`, `"a":1`,
	`{"expected":"x","actual":"Order #000123 shipped","diff":"--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n+y\n","note":"n"}`,
	strings.Repeat("[", MaxEmbedDepth) + strings.Repeat("]", MaxEmbedDepth),
	strings.Repeat("[", MaxEmbedDepth+1) + strings.Repeat("]", MaxEmbedDepth+1),
	strings.Repeat(`{"a":`, MaxEmbedDepth) + "1" + strings.Repeat("}", MaxEmbedDepth),
	strings.Repeat(`{"a":`, MaxEmbedDepth+1) + "1" + strings.Repeat("}", MaxEmbedDepth+1),
	strings.Repeat("[", 20000),
}

// TestEmbeddableAgreesWithEncodingJSON: the one-pass reader says what
// Depth and json.Valid together said, on every corpus document and every
// prefix of them.
func TestEmbeddableAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range validCorpus {
		for n := 0; n <= len(doc); n++ {
			b := []byte(doc[:n])
			if got, want := embeddable(b), embeddableSlow(b); got != want {
				t.Fatalf("%q: embeddable %v, Depth+json.Valid %v", b, got, want)
			}
		}
	}
}

// FuzzEmbeddable holds the one-pass reader to Depth and json.Valid.
func FuzzEmbeddable(f *testing.F) {
	for _, doc := range validCorpus {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := embeddable(b), embeddableSlow(b); got != want {
			t.Fatalf("%q: embeddable %v, Depth+json.Valid %v", b, got, want)
		}
	})
}
