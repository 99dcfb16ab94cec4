package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// needleSearch is the outcome of looking for every needle of a list.
type needleSearch struct {
	found   []any
	missing []any
	// nonString counts needles that could not be searched for in text
	// because they are not strings.
	nonString int
}

// searchNeedles looks for each needle in the actual value. In an array
// actual a needle is present when some element equals it (JSON equality);
// in any other actual it must be a substring of the actual text. A needle
// that is not a string never matches text: write it quoted in the suite.
func searchNeedles(actual value, needles []any) needleSearch {
	var s needleSearch
	arr, isArray := actual.v.([]any)
	var text string
	if !isArray {
		text = actual.text()
	}
	for _, n := range needles {
		if present(n, arr, isArray, text, &s) {
			s.found = append(s.found, n)
		} else {
			s.missing = append(s.missing, n)
		}
	}
	return s
}

func present(needle any, arr []any, isArray bool, text string, s *needleSearch) bool {
	if isArray {
		for _, el := range arr {
			if jsonvalue.Equal(el, needle) {
				return true
			}
		}
		return false
	}
	str, ok := needle.(string)
	if !ok {
		s.nonString++
		return false
	}
	return strings.Contains(text, str)
}

// notes joins the explanations that apply to a list failure.
func (s needleSearch) notes(in input, lead string) string {
	parts := []string{}
	if lead != "" {
		parts = append(parts, lead)
	}
	switch {
	case s.nonString == 1:
		parts = append(parts, "1 value is not a string and cannot be found in text (quote it in the suite)")
	case s.nonString > 1:
		parts = append(parts, fmt.Sprintf("%d values are not strings and cannot be found in text (quote them in the suite)", s.nonString))
	}
	if _, isArray := in.actual.v.([]any); !isArray {
		if n := in.actual.textNote(); n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "; ")
}

// matchContainsAll passes when every listed value is present: as a
// substring of the actual text, or as an element of an actual array. An
// empty list passes. A failure lists the absent values under "missing".
func matchContainsAll(_ *family, in input) (sdk.MatchResult, error) {
	needles := in.arg.([]any)
	s := searchNeedles(in.actual, needles)
	if len(s.missing) == 0 {
		return sdk.Pass(), nil
	}
	lead := fmt.Sprintf("%d of %d values not found", len(s.missing), len(needles))
	return sdk.Fail(sdk.Failure{
		Expected: in.argRaw,
		Actual:   in.actualRaw,
		Note:     s.notes(in, lead),
		Extra:    map[string]any{"missing": s.missing},
	}), nil
}

// matchContainsAny passes when at least one listed value is present (see
// matchContainsAll). An empty list never passes.
func matchContainsAny(_ *family, in input) (sdk.MatchResult, error) {
	needles := in.arg.([]any)
	if len(needles) == 0 {
		return sdk.Fail(sdk.Failure{
			Expected: in.argRaw,
			Actual:   in.actualRaw,
			Note:     "contains-any was given an empty list, and an empty list never matches",
		}), nil
	}
	s := searchNeedles(in.actual, needles)
	if len(s.found) > 0 {
		return sdk.Pass(), nil
	}
	lead := fmt.Sprintf("none of the %d values was found", len(needles))
	return sdk.Fail(sdk.Failure{
		Expected: in.argRaw,
		Actual:   in.actualRaw,
		Note:     s.notes(in, lead),
	}), nil
}
