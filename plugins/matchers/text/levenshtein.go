package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/agnivade/levenshtein"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// levenshteinCellBudget bounds the work of one distance computation, in
// dynamic-programming cells. Beyond it a banded computation decides
// whether the distance is within max; beyond that too the item errors.
const levenshteinCellBudget = 64_000_000

// levArg is the levenshtein argument: {value: string, max: integer >= 0}.
type levArg struct {
	value string
	max   int
}

// levAliases maps field names people reach for to the real one.
var levAliases = map[string]string{
	"max_distance": "max", "distance": "max", "threshold": "max", "maxDistance": "max",
	"expected": "value", "text": "value", "reference": "value",
}

// parseLevArg validates and reads a levenshtein argument.
func parseLevArg(arg any) (levArg, error) {
	obj, ok := arg.(map[string]any)
	if !ok {
		return levArg{}, fmt.Errorf("expected an object {value: string, max: integer}, got %s", jsonvalue.Describe(arg))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "value" || k == "max" {
			continue
		}
		if alias, ok := levAliases[k]; ok {
			return levArg{}, fmt.Errorf("unknown field %q (did you mean %q?)", k, alias)
		}
		return levArg{}, fmt.Errorf("unknown field %q (the fields are value and max)", k)
	}
	var out levArg
	v, ok := obj["value"]
	if !ok {
		return levArg{}, errors.New("missing field \"value\" (the reference string)")
	}
	if out.value, ok = v.(string); !ok {
		return levArg{}, fmt.Errorf("field \"value\" must be a string, got %s", jsonvalue.Describe(v))
	}
	m, ok := obj["max"]
	if !ok {
		return levArg{}, errors.New("missing field \"max\" (the largest distance that passes)")
	}
	n, ok := m.(json.Number)
	if !ok {
		return levArg{}, fmt.Errorf("field \"max\" must be a non-negative integer, got %s", jsonvalue.Describe(m))
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > math.MaxInt32 {
		return levArg{}, fmt.Errorf("field \"max\" must be a non-negative integer, got %s", n)
	}
	out.max = int(i)
	return out, nil
}

// checkLevenshtein validates a levenshtein argument.
func checkLevenshtein(_ *family, arg any) error {
	_, err := parseLevArg(arg)
	return err
}

// matchLevenshtein passes when the edit distance (insertions, deletions
// and substitutions of Unicode code points) between the actual text and
// value is at most max. A failure carries "distance" and "max"; when the
// distance was only bounded, it carries "min_distance" instead.
func matchLevenshtein(_ *family, in input) (sdk.MatchResult, error) {
	arg, err := parseLevArg(in.arg)
	if err != nil {
		return sdk.MatchResult{}, invalidArg(in.key, err)
	}
	text := in.actual.text()
	d, exact, err := editDistance(arg.value, text, arg.max)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("%s: %w", in.key, err)
	}
	if exact && d <= arg.max {
		return sdk.Pass(), nil
	}
	f := sdk.Failure{
		Expected: jsonvalue.Compact(arg.value),
		Actual:   in.actualRaw,
		Extra:    map[string]any{"max": arg.max},
	}
	note := fmt.Sprintf("edit distance %d exceeds max %d", d, arg.max)
	if exact {
		f.Extra["distance"] = d
	} else {
		f.Extra["min_distance"] = d
		note = fmt.Sprintf("edit distance is at least %d, above max %d (the strings are too long to compute it exactly)", d, arg.max)
	}
	if n := in.actual.textNote(); n != "" {
		note += "; " + n
	}
	f.Note = note
	return sdk.Fail(f), nil
}

// editDistance returns the Levenshtein distance between a and b over code
// points. For very long strings it may only establish a lower bound above
// limit, in which case exact is false.
func editDistance(a, b string, limit int) (d int, exact bool, err error) {
	ra, rb := []rune(a), []rune(b)
	p := commonPrefix(ra, rb)
	ra, rb = ra[p:], rb[p:]
	s := commonSuffix(ra, rb)
	ra, rb = ra[:len(ra)-s], rb[:len(rb)-s]
	la, lb := int64(len(ra)), int64(len(rb))
	if la*lb <= levenshteinCellBudget {
		return levenshtein.ComputeDistance(string(ra), string(rb)), true, nil
	}
	gap := la - lb
	if gap < 0 {
		gap = -gap
	}
	if gap > int64(limit) {
		return int(gap), false, nil
	}
	if max(la, lb)*(2*int64(limit)+1) <= levenshteinCellBudget {
		d := bandedDistance(ra, rb, limit)
		return d, d <= limit, nil
	}
	return 0, false, fmt.Errorf("strings of %d and %d characters are too long to compare with max %d", la, lb, limit)
}

// bandedDistance is the Levenshtein distance of a and b when it is at most
// k, and k+1 otherwise. It fills only the diagonal band of width 2k+1
// (Ukkonen), so it costs O(len × k).
func bandedDistance(a, b []rune, k int) int {
	n, m := len(a), len(b)
	inf := k + 1
	if n-m > k || m-n > k {
		return inf
	}
	prev, cur := make([]int, m+2), make([]int, m+2)
	for j := 0; j <= m+1; j++ {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= n; i++ {
		lo, hi := max(1, i-k), min(m, i+k)
		if lo == 1 {
			cur[0] = min(i, inf)
		} else {
			cur[lo-1] = inf
		}
		best := cur[lo-1]
		for j := lo; j <= hi; j++ {
			v := prev[j-1]
			if a[i-1] != b[j-1] {
				v++
			}
			v = min(v, prev[j]+1, cur[j-1]+1, inf)
			cur[j] = v
			best = min(best, v)
		}
		cur[hi+1] = inf
		if best >= inf {
			return inf
		}
		prev, cur = cur, prev
	}
	return min(prev[m], inf)
}
