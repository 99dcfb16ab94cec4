package judgereply

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
)

// ErrMalformed is matched (errors.Is) by every refusal of a reply: it is
// not the requested JSON object.
var ErrMalformed = errors.New("judge reply is not the requested JSON object")

// Reply is a parsed judge reply. Score is in 0..1.
type Reply struct {
	// Score is the judge's score, 0..1.
	Score float64 `json:"score"`
	// Pass is the judge's own verdict; nil when it gave none.
	Pass *bool `json:"pass,omitempty"`
	// Reason is the judge's one-sentence reason.
	Reason string `json:"reason"`
	// Evidence is the span the judge cited; "" when it cited none.
	Evidence string `json:"evidence,omitempty"`
}

// Options say what a reply must carry.
type Options struct {
	// RequireEvidence makes the evidence field mandatory (it may still be
	// the empty string, which the caller treats as "no evidence").
	RequireEvidence bool
}

// MaxExcerpt is the most bytes of a refused reply an Error keeps.
const MaxExcerpt = 512

// Error is a refused reply: why, and a bounded excerpt of what came back.
// The excerpt is the model's raw text, so callers mask it (Masked) before
// it reaches a report or a log.
type Error struct {
	// Why says what was wrong, in words fit for a repair instruction.
	Why string
	// Excerpt is the start of the raw reply, at most MaxExcerpt bytes.
	Excerpt string
}

// Error names the problem and quotes the excerpt.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (reply began %q)", ErrMalformed, e.Why, e.Excerpt)
}

// Is matches ErrMalformed.
func (e *Error) Is(target error) bool { return target == ErrMalformed }

// Masked returns a copy of e whose excerpt went through mask (a
// redactor's String).
func (e *Error) Masked(mask func(string) string) *Error {
	if mask == nil {
		return e
	}
	return &Error{Why: mask(e.Why), Excerpt: mask(e.Excerpt)}
}

// Excerpt returns the start of raw, at most n bytes, cut at a character
// boundary, with "…" when it was cut.
func Excerpt(raw string, n int) string {
	if len(raw) <= n {
		return raw
	}
	cut := n
	for cut > 0 && !utf8Start(raw[cut]) {
		cut--
	}
	return raw[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// wire is the reply's JSON form; pointers tell a missing field from a
// zero one.
type wire struct {
	Score    json.RawMessage `json:"score"`
	Pass     *bool           `json:"pass"`
	Reason   *string         `json:"reason"`
	Evidence *string         `json:"evidence"`
}

// Parse reads a judge's reply strictly (see the package comment).
func Parse(raw string, opts Options) (Reply, error) {
	refuse := func(format string, args ...any) (Reply, error) {
		return Reply{}, &Error{Why: fmt.Sprintf(format, args...), Excerpt: Excerpt(raw, MaxExcerpt)}
	}
	body := unfence(strings.TrimSpace(raw))
	if body == "" {
		return refuse("the reply is empty")
	}
	if body[0] != '{' {
		return refuse("the reply must be only a JSON object, starting with {")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var w wire
	if err := dec.Decode(&w); err != nil {
		return refuse("the reply is not a valid JSON object of the requested fields: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return refuse("the reply has text after the JSON object")
	}
	if w.Score == nil {
		return refuse(`the "score" field is missing`)
	}
	score, ok := number(w.Score)
	if !ok || score < 0 || score > 1 {
		return refuse(`"score" must be a number from 0 to 1, not %s`, Excerpt(string(w.Score), 40))
	}
	if w.Reason == nil {
		return refuse(`the "reason" field is missing`)
	}
	if opts.RequireEvidence && w.Evidence == nil {
		return refuse(`the "evidence" field is missing (quote the span of the response that supports the score, or "" if there is none)`)
	}
	r := Reply{Score: score, Pass: w.Pass, Reason: strings.TrimSpace(*w.Reason)}
	if w.Evidence != nil {
		r.Evidence = *w.Evidence
	}
	return r, nil
}

// number reads a JSON number (a string holding one is refused).
func number(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// unfence strips one Markdown code fence (``` or ```json) wrapping the
// whole text; any other text is returned as it is.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	lang := strings.TrimSpace(inner[:nl])
	if lang != "" && !strings.EqualFold(lang, "json") {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}

// EvidenceFound reports whether span, trimmed of surrounding white space,
// occurs verbatim in candidate and holds at least one letter or digit (a
// lone quote mark or full stop occurs in almost any text and backs
// nothing).
func EvidenceFound(candidate, span string) bool {
	span = strings.TrimSpace(span)
	return strings.IndexFunc(span, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 &&
		strings.Contains(candidate, span)
}
