package score

import (
	"strings"
	"testing"
)

func TestCombine(t *testing.T) {
	for _, tc := range []struct {
		key    string
		passed []bool
		want   bool
	}{
		{Not, []bool{true}, false},
		{Not, []bool{false}, true},
		{AnyOf, []bool{false, false, false}, false},
		{AnyOf, []bool{false, true, false}, true},
		{AnyOf, []bool{true, true}, true},
		{AllOf, []bool{true, true, true}, true},
		{AllOf, []bool{true, false, true}, false},
		{AllOf, []bool{true}, true},
		{OneOf, []bool{false, false}, false},
		{OneOf, []bool{false, true}, true},
		{OneOf, []bool{true, true}, false},
		{OneOf, []bool{true, true, true}, false},
	} {
		got, err := Combine(tc.key, tc.passed)
		if err != nil || got != tc.want {
			t.Errorf("Combine(%s, %v) = %v, %v; want %v", tc.key, tc.passed, got, err, tc.want)
		}
	}
}

// TestCombineNests checks the spec's nesting example, allOf: [anyOf: [...],
// not: {...}], by combining inner results the way the runner does.
func TestCombineNests(t *testing.T) {
	for _, tc := range []struct {
		anyOf []bool
		inner bool // the matcher under not
		want  bool
	}{
		{[]bool{true, false}, false, true},
		{[]bool{false, false}, false, false},
		{[]bool{true, true}, true, false},
	} {
		a, _ := Combine(AnyOf, tc.anyOf)
		n, _ := Combine(Not, []bool{tc.inner})
		got, err := Combine(AllOf, []bool{a, n})
		if err != nil || got != tc.want {
			t.Errorf("allOf[anyOf%v, not(%v)] = %v, %v; want %v", tc.anyOf, tc.inner, got, err, tc.want)
		}
	}
}

func TestCombineErrors(t *testing.T) {
	for _, tc := range []struct {
		key    string
		passed []bool
		want   string
	}{
		{AnyOf, nil, "no inner matcher"},
		{Not, []bool{true, false}, "exactly one"},
		{"contains", []bool{true}, "not a composition key"},
	} {
		if _, err := Combine(tc.key, tc.passed); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Combine(%s, %v) error = %v, want %q", tc.key, tc.passed, err, tc.want)
		}
	}
}

func TestCombineNote(t *testing.T) {
	for _, tc := range []struct {
		key    string
		passed []bool
		want   string
	}{
		{Not, []bool{true}, "the inner matcher passed, so not fails"},
		{AnyOf, []bool{false, false, false}, "none of the 3 branches passed; anyOf needs at least one"},
		{AllOf, []bool{true, false, false}, "2 of 3 branches failed; allOf needs all of them"},
		{OneOf, []bool{true, true}, "2 of 2 branches passed; oneOf needs exactly one"},
		{OneOf, []bool{false, false}, "none of the 2 branches passed; oneOf needs exactly one"},
	} {
		if got := CombineNote(tc.key, tc.passed); got != tc.want {
			t.Errorf("CombineNote(%s, %v) = %q, want %q", tc.key, tc.passed, got, tc.want)
		}
	}
}
