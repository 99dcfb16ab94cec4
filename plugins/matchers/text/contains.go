package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// mismatch is where and why a contains comparison failed.
type mismatch struct {
	// path is the JSON pointer of the failing place, relative to the value
	// the comparison started at ("" for the value itself).
	path string
	// expected and actual are the values at path; hasActual is false when
	// the actual side is missing there.
	expected  any
	actual    any
	hasActual bool
	note      string
}

// matchContains implements contains: substring for strings, recursive
// subset for objects, multiset for arrays, equality for other scalars.
// A failure's path is the JSON pointer of the first place that does not
// match (object keys are visited in sorted order), its expected and actual
// the values found there, and its note says what is wrong.
func matchContains(_ *family, in input) (sdk.MatchResult, error) {
	m := containsAt(in.actual.v, in.arg, "")
	if m == nil {
		return sdk.Pass(), nil
	}
	f := sdk.Failure{Path: m.path, Note: m.note}
	if m.path == "" {
		f.Expected, f.Actual = in.argRaw, in.actualRaw
	} else {
		f.Expected = jsonvalue.Compact(m.expected)
		if m.hasActual {
			f.Actual = jsonvalue.Compact(m.actual)
		}
	}
	return sdk.Fail(f), nil
}

// containsAt reports whether actual contains want, or the first mismatch.
func containsAt(actual, want any, path string) *mismatch {
	here := func(note string) *mismatch {
		return &mismatch{path: path, expected: want, actual: actual, hasActual: true, note: note}
	}
	switch w := want.(type) {
	case string:
		a, ok := actual.(string)
		if !ok {
			return here(fmt.Sprintf("expected a string containing %q, got %s", w, jsonvalue.Describe(actual)))
		}
		if !strings.Contains(a, w) {
			return here(fmt.Sprintf("%q is not a substring of the actual string", w))
		}
		return nil
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return here("expected an object, got " + jsonvalue.Describe(actual))
		}
		return containsObject(a, w, path)
	case []any:
		a, ok := actual.([]any)
		if !ok {
			return here("expected an array, got " + jsonvalue.Describe(actual))
		}
		return containsArray(a, w, path)
	}
	if jsonvalue.Equal(actual, want) {
		return nil
	}
	if _, ok := actual.(string); ok {
		return here(fmt.Sprintf("the actual value is a string, so the argument must be a string to search for, got %s (quote it in the suite to search for its text)", jsonvalue.Describe(want)))
	}
	return here(fmt.Sprintf("expected %s, got %s", jsonvalue.Compact(want), jsonvalue.Compact(actual)))
}

// containsObject checks that every key of want is in actual and that its
// value contains want's value there.
func containsObject(actual, want map[string]any, path string) *mismatch {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := path + "/" + escapePointer(k)
		av, ok := actual[k]
		if !ok {
			return &mismatch{path: p, expected: want[k], note: fmt.Sprintf("key %q is missing from the actual object", k)}
		}
		if m := containsAt(av, want[k], p); m != nil {
			return m
		}
	}
	return nil
}

// containsArray checks the multiset rule: every element of want needs its
// own element of actual that contains it. It finds a maximum bipartite
// matching, so the order of elements never causes a false failure.
func containsArray(actual, want []any, path string) *mismatch {
	if len(want) == 0 {
		return nil
	}
	fits := make([][]int, len(want))
	for i, w := range want {
		for j, a := range actual {
			if containsAt(a, w, "") == nil {
				fits[i] = append(fits[i], j)
			}
		}
	}
	owner := make([]int, len(actual)) // actual index -> want index, or -1
	for j := range owner {
		owner[j] = -1
	}
	for i := range want {
		seen := make([]bool, len(actual))
		if !augment(i, fits, owner, seen) {
			elem := truncateRunes(string(jsonvalue.Compact(want[i])), 80)
			note := fmt.Sprintf("no element of the actual array contains expected element %d (%s)", i, elem)
			if len(fits[i]) > 0 {
				note = fmt.Sprintf("expected element %d (%s) has no distinct match: every actual element containing it is taken by another expected element", i, elem)
			}
			return &mismatch{path: path, expected: want, actual: actual, hasActual: true, note: note}
		}
	}
	return nil
}

// augment tries to give want element i an actual element, moving earlier
// assignments along an augmenting path when needed (Kuhn's algorithm).
func augment(i int, fits [][]int, owner []int, seen []bool) bool {
	for _, j := range fits[i] {
		if seen[j] {
			continue
		}
		seen[j] = true
		if owner[j] < 0 || augment(owner[j], fits, owner, seen) {
			owner[j] = i
			return true
		}
	}
	return false
}

// pointerEscaper escapes a key for use in a JSON pointer (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escapePointer(key string) string { return pointerEscaper.Replace(key) }
