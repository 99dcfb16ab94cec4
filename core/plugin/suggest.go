package plugin

import "github.com/agnivade/levenshtein"

// Suggest returns the candidate closest to s, or "" when none is close
// enough to be a plausible typo (at most a third of the length, min 2).
func Suggest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(s, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(2, len(s)/3)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}
