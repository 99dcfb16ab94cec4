package jsonx

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
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
	// Strings long enough for the eight-bytes-at-a-time scan, with the
	// special bytes at every offset of a word.
	`"` + strings.Repeat("plain é text ", 5) + `"`,
	`"0123456\"89abcdef\\0123456789\u00e9abcdef\n"`, "\"0123456789ab\x1fcdef\"", "\"01234567\x7f\x80\xff89abcdef\"",
	`{"expected":"` + strings.Repeat("x", 63) + `","actual":"` + strings.Repeat("\\\"", 17) + `"}`,
}

// TestValidAgreesWithEncodingJSON: Valid says what json.Valid says, on
// every corpus document and every prefix of them, and on nesting at and
// past encoding/json's limit of 10,000 levels.
func TestValidAgreesWithEncodingJSON(t *testing.T) {
	docs := append([]string{
		strings.Repeat("[", maxValidDepth) + strings.Repeat("]", maxValidDepth),
		strings.Repeat("[", maxValidDepth+1) + strings.Repeat("]", maxValidDepth+1),
		strings.Repeat(`{"a":`, maxValidDepth) + "1" + strings.Repeat("}", maxValidDepth),
		strings.Repeat(`{"a":`, maxValidDepth+1) + "1" + strings.Repeat("}", maxValidDepth+1),
	}, validCorpus...)
	for _, doc := range docs {
		for n := 0; n <= len(doc); n++ {
			if len(doc) > 1000 && n > 100 && n < len(doc)-2 {
				continue // the long documents: their start, whole, and cut short
			}
			b := []byte(doc[:n])
			if got, want := Valid(b), json.Valid(b); got != want {
				t.Fatalf("%.80q (%d bytes): Valid %v, json.Valid %v", b, len(b), got, want)
			}
		}
	}
	if !Valid([]byte(docs[0])) || Valid([]byte(docs[1])) {
		t.Fatal("the depth limit is not encoding/json's")
	}
}

// FuzzValid holds Valid to json.Valid.
func FuzzValid(f *testing.F) {
	for _, doc := range validCorpus {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("%q: Valid %v, json.Valid %v", b, got, want)
		}
	})
}

// TestStringSpecials checks the word test byte by byte: every value at
// every position of a word whose earlier bytes are plain (ASCII and not)
// and whose later ones are anything, so neither a miss, a false alarm
// from a neighbour nor a wrong first position goes unseen.
func TestStringSpecials(t *testing.T) {
	fillers := []byte{' ', 'a', '!', '#', '[', ']', 0x7f, 0x80, 0xc3, 0xff}
	later := []byte{0, 0x1f, '"', '\\', 'a', 0x80, 0xff}
	for _, fill := range fillers {
		for _, after := range later {
			for pos := range 8 {
				for c := range 256 {
					var w [8]byte
					for k := range w {
						w[k] = fill
						if k > pos {
							w[k] = after
						}
					}
					w[pos] = byte(c)
					special := c == '"' || c == '\\' || c < 0x20
					m := stringSpecials(binary.LittleEndian.Uint64(w[:]))
					first := bits.TrailingZeros64(m) >> 3
					afterSpecial := after == '"' || after == '\\' || after < 0x20
					switch {
					case special && first != pos:
						t.Fatalf("%q: first special at %d, want %d", w, first, pos)
					case !special && pos < 7 && afterSpecial && first != pos+1:
						t.Fatalf("%q: first special at %d, want %d", w, first, pos+1)
					case !special && (pos == 7 || !afterSpecial) && m != 0:
						t.Fatalf("%q: special at %d, want none", w, first)
					}
				}
			}
		}
	}
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
