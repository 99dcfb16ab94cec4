package wire

import (
	"testing"

	"github.com/mcptest/mcptest/internal/redact"
)

func TestRedactor(t *testing.T) {
	r := NewRedactor([]string{"abc", "secret-1", "secret-1-longer", ""}, []string{"x-api-key"})
	r.Add("tok-9999")
	if got := r.Scrub("a secret-1-longer and secret-1 and tok-9999 and abc"); got != "a [REDACTED] and [REDACTED] and [REDACTED] and abc" {
		t.Errorf("scrub = %q", got)
	}
	// A server's own escapes are seen through (internal/redact has the
	// full set of forms).
	if got := r.Scrub(`{"t":"tok\u002d9999","s":"secret\/1"}`); got != `{"t":"[REDACTED]","s":"secret\/1"}` {
		t.Errorf("scrub of escaped forms = %q", got)
	}
	h := r.Header(map[string][]string{"Authorization": {"Bearer x"}, "X-Api-Key": {"k"}, "X-Other": {"has secret-1"}})
	if h.Get("Authorization") != redact.Mask || h.Get("X-Api-Key") != redact.Mask || h.Get("X-Other") != "has "+redact.Mask {
		t.Errorf("header = %v", h)
	}
	var none *Redactor
	if none.Scrub("x") != "x" {
		t.Error("nil redactor changed text")
	}
}
