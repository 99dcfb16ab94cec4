package judgereply

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
	cases := map[string]struct {
		raw  string
		opts Options
		want Reply
	}{
		"plain":          {raw: `{"score": 0.8, "pass": true, "reason": " fine "}`, want: Reply{Score: 0.8, Reason: "fine"}},
		"no pass":        {raw: `{"score": 0, "reason": "bad"}`, want: Reply{Score: 0, Reason: "bad"}},
		"fenced json":    {raw: "```json\n{\"score\": 1, \"reason\": \"ok\"}\n```", want: Reply{Score: 1, Reason: "ok"}},
		"fenced bare":    {raw: "  ```\n{\"score\": 0.5, \"reason\": \"ok\"}\n```  ", want: Reply{Score: 0.5, Reason: "ok"}},
		"evidence":       {raw: `{"score": 1, "reason": "r", "evidence": "2.3.0"}`, opts: Options{RequireEvidence: true}, want: Reply{Score: 1, Reason: "r", Evidence: "2.3.0"}},
		"empty evidence": {raw: `{"score": 0, "reason": "r", "evidence": ""}`, opts: Options{RequireEvidence: true}, want: Reply{Score: 0, Reason: "r"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(c.raw, c.opts)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got.Pass = nil
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestParsePass(t *testing.T) {
	r, err := Parse(`{"score": 0.2, "pass": false, "reason": "x"}`, Options{})
	if err != nil || r.Pass == nil || *r.Pass {
		t.Fatalf("got %+v, %v; want pass false", r, err)
	}
}

func TestParseRefuses(t *testing.T) {
	cases := map[string]struct {
		raw  string
		opts Options
		why  string
	}{
		"empty":            {raw: "  ", why: "empty"},
		"prose before":     {raw: `Sure! {"score": 1, "reason": "r"}`, why: "starting with {"},
		"prose after":      {raw: `{"score": 1, "reason": "r"} hope this helps`, why: "after the JSON"},
		"two objects":      {raw: `{"score": 1, "reason": "r"}{"score": 0, "reason": "r"}`, why: "after the JSON"},
		"score string":     {raw: `{"score": "0.9", "reason": "r"}`, why: "from 0 to 1"},
		"score above":      {raw: `{"score": 1.5, "reason": "r"}`, why: "from 0 to 1"},
		"score negative":   {raw: `{"score": -0.1, "reason": "r"}`, why: "from 0 to 1"},
		"missing score":    {raw: `{"reason": "r"}`, why: `"score" field is missing`},
		"missing reason":   {raw: `{"score": 1}`, why: `"reason" field is missing`},
		"unknown field":    {raw: `{"score": 1, "reason": "r", "confidence": 3}`, why: "unknown field"},
		"missing evidence": {raw: `{"score": 1, "reason": "r"}`, opts: Options{RequireEvidence: true}, why: `"evidence" field is missing`},
		"truncated":        {raw: `{"score": 1, "reas`, why: "valid JSON"},
		"other fence":      {raw: "```yaml\nscore: 1\n```", why: "starting with {"},
		"array":            {raw: `[{"score": 1, "reason": "r"}]`, why: "starting with {"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(c.raw, c.opts)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Why, c.why) {
				t.Fatalf("why = %q, want it to mention %q", e.Why, c.why)
			}
			if !strings.Contains(Repair(err, c.opts), e.Why) {
				t.Fatalf("repair instruction does not say why")
			}
		})
	}
}

func TestExcerptBoundedAndMasked(t *testing.T) {
	raw := strings.Repeat("é", MaxExcerpt) + " sk-secret"
	_, err := Parse(raw, Options{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	if len(e.Excerpt) > MaxExcerpt+len("…") || strings.Contains(e.Excerpt, "sk-secret") {
		t.Fatalf("excerpt not bounded: %d bytes", len(e.Excerpt))
	}
	if !strings.HasSuffix(e.Excerpt, "é…") {
		t.Fatalf("excerpt cut inside a character: %q", e.Excerpt[len(e.Excerpt)-8:])
	}
	short := &Error{Why: "w", Excerpt: "key sk-secret here"}
	m := short.Masked(func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[REDACTED]") })
	if strings.Contains(m.Error(), "sk-secret") {
		t.Fatalf("masked error leaks: %s", m.Error())
	}
}

func TestEvidenceFound(t *testing.T) {
	cand := "The 2.3.0 release added per-tenant rate limits."
	for span, want := range map[string]bool{
		"2.3.0 release":               true,
		"  per-tenant rate limits.  ": true,
		"2.3.0 Release":               false,
		"rewrote the billing engine":  false,
		"":                            false,
		"   ":                         false,
		".":                           false,
		" - ":                         false,
		"2":                           true,
	} {
		if got := EvidenceFound(cand, span); got != want {
			t.Errorf("EvidenceFound(%q) = %v, want %v", span, got, want)
		}
	}
}

func TestInstructionNamesFields(t *testing.T) {
	if s := Instruction(Options{}); strings.Contains(s, "evidence") || !strings.Contains(s, `"score"`) {
		t.Fatalf("instruction: %s", s)
	}
	if s := Instruction(Options{RequireEvidence: true}); !strings.Contains(s, `"evidence"`) {
		t.Fatalf("instruction: %s", s)
	}
}
