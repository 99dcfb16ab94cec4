package main

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDiffInlineASCII checks the ASCII path writes exactly what the
// general path writes, on hand-picked pairs and on random near misses,
// and that it takes the pairs it is meant for.
func TestDiffInlineASCII(t *testing.T) {
	long := strings.Repeat("x", 3000)
	pairs := [][2]string{
		{"Order #000003 shipped; status=KO", "Order #000003 shipped; status=ok"},
		{"abc", "abcdef"},
		{"abcdef", "abc"},
		{"def", "abcdef"},
		{"abc", "xyz"},
		{"", "x"},
		{strings.Repeat("a", 40) + "1" + strings.Repeat("b", 40), strings.Repeat("a", 40) + "2" + strings.Repeat("b", 40)},
		{"prefix " + long + " suffix", "prefix " + long + "y suffix"},
		{"a" + long, "b" + long + "c"},
		{"kitten", "sitting"}, // middles share bytes: the general path
		{"naïve", "naive"},    // not ASCII: the general path
	}
	took := 0
	for _, p := range pairs {
		if fast, ok := diffInlineASCII(p[0], p[1]); ok {
			took++
			if slow := diffInlineRunes(p[0], p[1]); fast != slow {
				t.Errorf("diff %q → %q: ASCII path %q, general path %q", p[0], p[1], fast, slow)
			}
		}
	}
	if took != len(pairs)-2 {
		t.Errorf("the ASCII path took %d of %d pairs, want all but the last two", took, len(pairs))
	}
	if _, ok := diffInlineASCII("kitten", "sitting"); ok {
		t.Error("the ASCII path took middles that share a byte")
	}

	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab01 -#~"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		base := word(r.IntN(80))
		other := base
		// Replace, insert or delete a short run somewhere.
		i := r.IntN(len(base) + 1)
		j := min(len(base), i+r.IntN(4))
		other = base[:i] + word(r.IntN(4)) + base[j:]
		if base == other {
			continue
		}
		if fast, ok := diffInlineASCII(base, other); ok {
			if slow := diffInlineRunes(base, other); fast != slow {
				t.Fatalf("diff %q → %q: ASCII path %q, general path %q", base, other, fast, slow)
			}
		}
	}
}
