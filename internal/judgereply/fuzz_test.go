package judgereply

import (
	"errors"
	"testing"
)

// FuzzParse: any text either parses to a score in 0..1 with a reason
// field, or is refused with ErrMalformed and a bounded excerpt; nothing
// panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"score": 0.5, "reason": "r"}`,
		"```json\n{\"score\": 1, \"reason\": \"r\", \"evidence\": \"e\"}\n```",
		`{"score": 1e-300, "reason": ""}`,
		`{"score": -0, "reason": "", "pass": null}`,
		"```\n```",
		`{"score": 1, "reason": "r"}` + "\x00",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, evidence bool) {
		r, err := Parse(raw, Options{RequireEvidence: evidence})
		if err != nil {
			var e *Error
			if !errors.Is(err, ErrMalformed) || !errors.As(err, &e) || len(e.Excerpt) > MaxExcerpt+len("…") {
				t.Fatalf("refusal %v", err)
			}
			return
		}
		if r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v accepted", r.Score)
		}
	})
}
