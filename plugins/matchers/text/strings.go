package main

import (
	"strings"

	"golang.org/x/text/cases"

	"github.com/mcptest/mcptest/sdk"
)

// textFailure is the failure of a string matcher: the argument as
// expected, the actual value as received, and a note when the value was
// matched as JSON text.
func textFailure(in input, note string) sdk.Failure {
	f := sdk.Failure{Expected: in.argRaw, Actual: in.actualRaw, Note: in.actual.textNote()}
	if note != "" {
		if f.Note != "" {
			f.Note = note + "; " + f.Note
		} else {
			f.Note = note
		}
	}
	return f
}

// matchIContains passes when the actual text contains the argument,
// ignoring case. Both sides are Unicode case-folded (so "STRASSE" contains
// "straße"), which is stricter than lower-casing.
func matchIContains(_ *family, in input) (sdk.MatchResult, error) {
	needle := in.arg.(string)
	if strings.Contains(fold(in.actual.text()), fold(needle)) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(textFailure(in, "substring not found, ignoring case")), nil
}

// fold applies full Unicode case folding. A Caser is not safe for
// concurrent use, so each call makes its own; ASCII text, which folds to
// its lower case (no ASCII letter folds outside ASCII), skips it.
func fold(s string) string {
	if isASCII(s) {
		return asciiLower(s)
	}
	return cases.Fold().String(s)
}

// asciiLower lower-cases ASCII letters, returning s itself when it has no
// upper-case letter.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// matchStartsWith passes when the actual text begins with the argument.
func matchStartsWith(_ *family, in input) (sdk.MatchResult, error) {
	if strings.HasPrefix(in.actual.text(), in.arg.(string)) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(textFailure(in, "")), nil
}

// checkRegex accepts a string that compiles as a Go RE2 pattern.
func checkRegex(f *family, arg any) error {
	if err := checkString(f, arg); err != nil {
		return err
	}
	_, err := f.regexps.compile(arg.(string))
	return err
}

// matchRegex passes when the pattern matches anywhere in the actual text.
// A failure carries "match": null, the shape reporters expect.
func matchRegex(f *family, in input) (sdk.MatchResult, error) {
	re, err := f.regexps.compile(in.arg.(string))
	if err != nil {
		return sdk.MatchResult{}, invalidArg(in.key, err)
	}
	if re.MatchString(in.actual.text()) {
		return sdk.Pass(), nil
	}
	fail := textFailure(in, "")
	fail.Extra = map[string]any{"match": nil}
	return sdk.Fail(fail), nil
}
