package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agnivade/levenshtein"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

func TestLevenshtein(t *testing.T) {
	runCases(t, []matchCase{
		{name: "within max", key: "levenshtein", actual: `"kitten"`, arg: `{"value":"sitting","max":3}`, pass: true},
		{name: "above max carries distance", key: "levenshtein", actual: `"kitten"`, arg: `{"value":"sitting","max":2}`, pass: false,
			fields: map[string]string{"distance": `3`, "max": `2`, "expected": `"sitting"`, "actual": `"kitten"`},
			absent: []string{"min_distance"},
			substr: map[string]string{"note": "edit distance 3 exceeds max 2"}},
		{name: "equal strings max 0", key: "levenshtein", actual: `"same"`, arg: `{"value":"same","max":0}`, pass: true},
		// Two code points differ; in UTF-8 bytes the distance would be 4.
		{name: "unicode code points pass", key: "levenshtein", actual: `"naïve café"`, arg: `{"value":"naive cafe","max":2}`, pass: true},
		{name: "unicode code points fail", key: "levenshtein", actual: `"naïve café"`, arg: `{"value":"naive cafe","max":1}`, pass: false,
			fields: map[string]string{"distance": `2`}},
		{name: "emoji modifier is one code point", key: "levenshtein", actual: `"👍🏽"`, arg: `{"value":"👍","max":1}`, pass: true},
		{name: "CJK", key: "levenshtein", actual: `"東京都"`, arg: `{"value":"京都","max":0}`, pass: false,
			fields: map[string]string{"distance": `1`}},
		{name: "number as text", key: "levenshtein", actual: `12345`, arg: `{"value":"12346","max":1}`, pass: true},
		{name: "big max", key: "levenshtein", actual: `""`, arg: `{"value":"abc","max":2147483647}`, pass: true},
	})
}

func TestLevenshteinLongStrings(t *testing.T) {
	h := serve(t)
	long := strings.Repeat("abcdefghij", 20000) // 200k code points
	mid := long[:100000] + "XY" + long[100002:]
	// Long strings sharing a prefix and suffix are trimmed to the middle.
	r := h.Match("levenshtein", quote(mid), `{"value":`+quote(long)+`,"max":2}`)
	if !r.Pass || r.Error != "" {
		t.Fatalf("want pass, got %+v", r)
	}
	// Very different lengths give a lower bound without the full table.
	r = h.Match("levenshtein", quote(long), `{"value":`+quote(strings.Repeat("z", 10000))+`,"max":5}`)
	if r.Pass || r.Error != "" {
		t.Fatalf("want failure, got %+v", r)
	}
	assertFailure(t, h, r, matchCase{
		fields: map[string]string{"min_distance": `190000`, "max": `5`},
		absent: []string{"distance"},
		substr: map[string]string{"note": "at least 190000"},
	})
	// Same length, too many differences for the table: the band decides.
	other := "XY" + long[2:len(long)-2] + "XY"
	r = h.Match("levenshtein", quote(long), `{"value":`+quote(other)+`,"max":3}`)
	if r.Pass || r.Error != "" {
		t.Fatalf("want failure, got %+v", r)
	}
	assertFailure(t, h, r, matchCase{fields: map[string]string{"min_distance": `4`}})
}

func quote(s string) string { return string(jsonvalue.Compact(s)) }

func TestBandedDistanceAgreesWithFullTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abcé日")
	randString := func() []rune {
		n := rng.IntN(12)
		out := make([]rune, n)
		for i := range out {
			out[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return out
	}
	for i := 0; i < 5000; i++ {
		a, b := randString(), randString()
		k := rng.IntN(8)
		want := levenshtein.ComputeDistance(string(a), string(b))
		got := bandedDistance(a, b, k)
		if want <= k && got != want || want > k && got != k+1 {
			t.Fatalf("banded(%q, %q, %d) = %d, full distance %d", string(a), string(b), k, got, want)
		}
	}
}
