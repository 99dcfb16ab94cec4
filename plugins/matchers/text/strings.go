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
	needle, text := in.arg.(string), in.actual.text()
	if found, ok := containsFoldASCII(text, needle); ok {
		if found {
			return sdk.Pass(), nil
		}
	} else if strings.Contains(fold(text), fold(needle)) {
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

// maxFoldScan bounds the byte comparisons containsFoldASCII may make; past
// it the folded copies and strings.Contains, linear in the text, are
// cheaper.
const maxFoldScan = 1 << 16

// containsFoldASCII is strings.Contains(fold(s), fold(sub)) for two ASCII
// strings, comparing in place instead of building two lower-cased copies
// per assertion. ok is false, and found meaningless, when either string is
// not ASCII or the search could cost more than maxFoldScan comparisons.
func containsFoldASCII(s, sub string) (found, ok bool) {
	if len(sub) > len(s) {
		return false, isASCII(s) && isASCII(sub)
	}
	if (len(s)-len(sub)+1)*len(sub) > maxFoldScan || !isASCII(s) || !isASCII(sub) {
		return false, false
	}
	if len(sub) == 0 {
		return true, true
	}
	first := lowerASCII(sub[0])
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) != first {
			continue
		}
		j := 1
		for j < len(sub) && lowerASCII(s[i+j]) == lowerASCII(sub[j]) {
			j++
		}
		if j == len(sub) {
			return true, true
		}
	}
	return false, true
}

// lowerASCII lower-cases one ASCII letter.
func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
	fail.Extra = noMatchExtra
	return sdk.Fail(fail), nil
}

// noMatchExtra is the Extra of every regex failure ("match": null). One map
// serves them all, since nothing writes to a failure's Extra once Match has
// returned it (the SDK only encodes it): a fresh one-entry map per failure
// was the largest allocation of a failing regex.
var noMatchExtra = map[string]any{"match": nil}
