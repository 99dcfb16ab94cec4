package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk"
)

// maxShownBytes caps how much of a value a failure repeats as "actual":
// a failure must stay readable, and a 50 MB tool response must not be
// copied into every report twice.
const maxShownBytes = 4096

// textOf returns the actual value as text. A value that is not a JSON
// string gives a *notTextError, which judged turns into a failure.
func textOf(key string, actual json.RawMessage) (string, error) {
	t := bytes.TrimSpace(actual)
	if len(t) == 0 || t[0] != '"' {
		return "", &notTextError{key: key, actual: actual}
	}
	var s string
	if err := json.Unmarshal(t, &s); err != nil {
		return "", fmt.Errorf("%s: decode actual value: %w", key, err)
	}
	return s, nil
}

// notTextError is an actual value that a text matcher cannot judge
// because it is not a string.
type notTextError struct {
	key    string
	actual json.RawMessage
}

// Error says what the value was instead of text.
func (e *notTextError) Error() string {
	return fmt.Sprintf("%s checks text, but the value is %s, not a string; point the target at the text to check", e.key, kindOf(bytes.TrimSpace(e.actual)))
}

// judged turns an error from textOf into a match outcome: a value that is
// not text fails the assertion; anything else could not be evaluated.
func judged(err error) (sdk.MatchResult, error) {
	var nt *notTextError
	if errors.As(err, &nt) {
		return sdk.Fail(sdk.Failure{Actual: shownJSON(nt.actual), Note: nt.Error()}), nil
	}
	return sdk.MatchResult{}, err
}

// kindOf names the JSON type of raw JSON text from its first byte, which
// is all a note needs and costs nothing for a large value.
func kindOf(t []byte) string {
	if len(t) == 0 {
		return "missing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '"':
		return "a string"
	}
	return "a number"
}

// shownJSON is raw JSON as a failure repeats it: unchanged when short,
// otherwise a JSON string holding its beginning and how much was cut.
func shownJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) <= maxShownBytes {
		return raw
	}
	return shownText(string(raw))
}

// shownText is text as a failure repeats it, as a JSON string, cut to
// maxShownBytes at a character boundary.
func shownText(s string) json.RawMessage {
	if len(s) > maxShownBytes {
		cut := maxShownBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
	}
	return sdk.JSON(s)
}

// position is a place in a text, counted from 1, in characters.
type position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// positionAt turns a byte offset in s into a line and column.
func positionAt(s string, offset int) position {
	offset = max(0, min(offset, len(s)))
	before := s[:offset]
	line := strings.Count(before, "\n") + 1
	lineStart := strings.LastIndexByte(before, '\n') + 1
	return position{Line: line, Column: utf8.RuneCountInString(before[lineStart:]) + 1}
}

// String renders the position for notes.
func (p position) String() string {
	return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
}

// near returns a short excerpt of s starting at byte offset, for notes.
func near(s string, offset int) string {
	offset = max(0, min(offset, len(s)))
	for offset > 0 && offset < len(s) && !utf8.RuneStart(s[offset]) {
		offset--
	}
	rest := s[offset:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if utf8.RuneCountInString(rest) > 24 {
		rest = string([]rune(rest)[:24]) + "…"
	}
	return rest
}

// parseFailure is the failure for text that does not parse: the note
// names the language, the position (when known) and the parser's reason,
// and the position is also given as line and column fields.
func parseFailure(lang, text string, pos position, reason string) sdk.MatchResult {
	f := sdk.Failure{Actual: shownText(text)}
	if pos.Line == 0 {
		f.Note = fmt.Sprintf("not valid %s: %s", lang, reason)
		return sdk.Fail(f)
	}
	f.Note = fmt.Sprintf("not valid %s at %s: %s", lang, pos, reason)
	f.Extra = map[string]any{"line": pos.Line, "column": pos.Column}
	return sdk.Fail(f)
}
