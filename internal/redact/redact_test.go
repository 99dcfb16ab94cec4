package redact

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
)

const token = "tok/3f9a-é-\"q\"-SECRET"

func TestMasksEveryEncoding(t *testing.T) {
	r := New(token)
	cases := map[string]string{
		"plain":           token,
		"go json":         mustMarshalBody(token),
		"slash escaped":   `tok\/3f9a-é-\"q\"-SECRET`,
		"u lower":         `tok\/3f9a-\u00e9-\"q\"-SECRET`,
		"u upper":         `tok\u002F3f9a-\u00E9-\u0022q\u0022-SECRET`,
		"every char as u": escapeEvery(token, `\u%04x`),
		"every char as U": escapeEvery(token, `\u%04X`),
		"mixed":           `\u0074ok\/3f9a-\u00E9-\"q\u0022-SECRE\u0054`,
		"twice, go":       mustMarshalBody(mustMarshalBody(token)),
		"twice, slash":    `tok\\\/3f9a-\\u00e9-\\\"q\\\"-SECRET`,
		"twice, u005c":    `tok\u005c/3f9a-\u005cu00e9-\u005c\"q\\\"-SECRET`,
		"thrice":          nest(token, 3, rand.New(rand.NewPCG(1, 2))),
		"four times":      nest(token, 4, rand.New(rand.NewPCG(3, 4))),
		"five times, go":  nest(token, 5, nil),
	}
	for name, enc := range cases {
		for _, text := range []string{enc, "before " + enc + " after", `{"k":"x ` + enc + ` y"}`} {
			got := r.String(text)
			if !strings.Contains(got, Mask) || strings.Contains(got, "SECRET") || strings.Contains(got, "3f9a") {
				t.Errorf("%s: %q masked to %q", name, text, got)
			}
		}
	}
}

func TestSurrogatePairs(t *testing.T) {
	secret := "key-😀-𝄞-rest"
	r := New(secret)
	for _, text := range []string{
		secret,
		`key-\ud83d\ude00-\uD834\uDD1E-rest`,
		`key-\uD83D\ude00-𝄞-rest`,
		`key-\\ud83d\\ude00-\\uD834\\uDD1E-rest`,
	} {
		if got := r.String(`{"a":"` + text + `"}`); got != `{"a":"`+Mask+`"}` {
			t.Errorf("%q masked to %q", text, got)
		}
	}
	// A lone high surrogate is not the character.
	if got := r.String(`"key-\ud83d-\uD834\uDD1E-rest"`); strings.Contains(got, Mask) {
		t.Errorf("lone surrogate matched: %q", got)
	}
}

func TestRandomEncodingsAtEveryDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	secrets := []string{token, "ab/cd\\ef", "ünï/cödé-𝄞-long", "sk-ant-0123456789abcdef"}
	r := New(secrets...)
	// -short tries a tenth of the encodings (seconds saved on every
	// save); make test tries them all.
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := range n {
		s := secrets[i%len(secrets)]
		depth := 1 + rng.IntN(MaxDepth)
		enc := nest(s, depth, rng)
		text := nest(`{"a":"x`, depth-1, rng) + enc + nest(`y"}`, depth-1, rng)
		got := r.String(text)
		if !strings.Contains(got, Mask) {
			t.Fatalf("depth %d: %q survived in %q", depth, s, got)
		}
	}
}

func TestJSONStaysValid(t *testing.T) {
	r := New("1234567", "secret-value")
	in := `{"n":1234567,"m":12345678,"s":"has secret-value and 1234567","k":{"secret-value":true},"e":"\u0073ecret-value"}`
	got := r.String(in)
	want := `{"n":"[REDACTED]","m":12345678,"s":"has [REDACTED] and [REDACTED]","k":{"[REDACTED]":true},"e":"[REDACTED]"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("masked JSON is not valid")
	}
}

func TestNoMaskAcrossStructureOrInsideEscapes(t *testing.T) {
	// In plain text a secret is masked wherever its bytes are; in a JSON
	// document only where a value holds it.
	r := New(`bb"]`, "n123456", "u0041bc")
	for _, in := range []string{`["abb"]`, `["x\n123456"]`, `["\u0041bc"]`} {
		if got := r.String(in); got != in {
			t.Errorf("%s changed to %s", in, got)
		}
	}
	if got := r.String(`not json: abb"] and x\n123456`); got != "not json: a"+Mask+" and x\\"+Mask {
		t.Errorf("text: %q", got)
	}
}

func TestUntouchedWhenAbsent(t *testing.T) {
	r := New(token)
	in := []byte(`{"a":"tok\/3f9a-\u00e9-\"q\"-SECRE","b":"\\u0074ok"}`)
	if got := r.Bytes(in); &got[0] != &in[0] {
		t.Errorf("a text without the secret was copied: %s", got)
	}
}

func TestOverlappingAndLongestFirst(t *testing.T) {
	r := New("secret", "secret-and-more", "abcdabcd")
	if got := r.String("secret-and-more"); got != Mask {
		t.Errorf("got %q", got)
	}
	if got := r.String("xabcdabcdabcdy"); got != "x"+Mask+"y" {
		t.Errorf("overlapping occurrences: %q", got)
	}
}

func TestShortAndNil(t *testing.T) {
	r := New("", "abc", "abcd", "abcd")
	if r.Len() != 1 {
		t.Errorf("Len = %d, want 1 (short, empty and repeated values ignored)", r.Len())
	}
	if got := r.String("abc abcd"); got != "abc "+Mask {
		t.Errorf("got %q", got)
	}
	var none *Redactor
	none.Add("whatever")
	if none.String("whatever") != "whatever" || string(none.Bytes([]byte("whatever"))) != "whatever" || none.Contains("whatever") {
		t.Error("a nil redactor masks nothing")
	}
}

func TestAddWhileMasking(t *testing.T) {
	r := New("first-secret")
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				if i == 0 {
					r.Add("token-" + strings.Repeat("x", j%50+1))
				}
				if got := r.String("a first-secret b"); got != "a "+Mask+" b" {
					t.Errorf("got %q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	if !r.Contains(`token-\u0078x`) {
		t.Error("a secret added later is not masked")
	}
}

func TestHeader(t *testing.T) {
	r := New("secret-1")
	h := r.Header(http.Header{"Authorization": {"Bearer x"}, "X-Api-Key": {"k"}, "X-Other": {`has secret\u002d1`}}, "x-api-key")
	if h.Get("Authorization") != Mask || h.Get("X-Api-Key") != Mask || h.Get("X-Other") != "has "+Mask {
		t.Errorf("header = %v", h)
	}
}

func mustMarshalBody(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func escapeEvery(s, format string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(escapeRune(c, map[string]int{`\u%04x`: 2, `\u%04X`: 3}[format]))
	}
	return b.String()
}

// TestHugeStringMaskedWhole: an escaped secret inside a string too long to
// decode with offsets masks the whole string, and the JSON stays valid.
func TestHugeStringMaskedWhole(t *testing.T) {
	r := New("tok/secret-huge")
	body := strings.Repeat(`a\"b `, maxTracked/4) + `tok\/secret-huge` + strings.Repeat("z", 10)
	in := `{"text":"` + body + `","n":1}`
	got := r.String(in)
	if got != `{"text":"`+Mask+`","n":1}` {
		t.Errorf("got %.80s…", got)
	}
}
