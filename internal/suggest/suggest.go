package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest returns the candidate the user most likely meant by input, or ""
// when none is close enough. Case and the choice between '-' and '_' are
// ignored; otherwise the closest candidate by Levenshtein distance wins if
// the distance is small for its length, and a candidate that starts with
// the input (or the reverse, "timeout" for "timeout_ms") comes next. Ties
// go to the earlier candidate, so results are stable.
func Closest(input string, candidates []string) string {
	in := normalizeKey(input)
	if in == "" {
		return ""
	}
	if a := abbreviationOf(in, candidates); a != "" {
		return a
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		nc := normalizeKey(c)
		if nc == in {
			return c
		}
		d := levenshtein.ComputeDistance(in, nc)
		if d <= maxTypos(in, nc) && d < len(in) && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	if best != "" {
		return best
	}
	if len(in) >= 3 {
		for _, c := range candidates {
			nc := normalizeKey(c)
			if strings.HasPrefix(nc, in) || strings.HasPrefix(in, nc) && len(nc) >= 3 {
				return c
			}
		}
	}
	return ""
}

// abbreviationOf returns the only candidate that the input abbreviates:
// same first letter, and the input's letters appear in it in order
// ("weighted_avg" for "weighted_average"). That beats a closer edit
// distance to another word ("weighted_sum").
func abbreviationOf(in string, candidates []string) string {
	if len(in) < 4 {
		return ""
	}
	found := ""
	for _, c := range candidates {
		nc := normalizeKey(c)
		if nc == in {
			return c
		}
		if nc[0] == in[0] && len(nc) > len(in) && isSubsequence(in, nc) {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

// isSubsequence reports whether the bytes of a appear in b in order.
func isSubsequence(a, b string) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// maxTypos is the largest edit distance still taken for a typo: one edit
// for words of up to three characters, two (a swap of neighbours, as in
// "lcoal") for longer ones, and about one per three characters beyond.
func maxTypos(a, b string) int {
	n := min(len(a), len(b))
	if n <= 3 {
		return 1
	}
	return max(2, n/3)
}

func normalizeKey(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}
