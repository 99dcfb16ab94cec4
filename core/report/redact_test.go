package report

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactorMasksEveryEscapingLevel(t *testing.T) {
	secret := `p@ss"word\with-quote`
	r := NewRedactor([]string{secret, "ab"}) // too short to mask
	once, _ := json.Marshal(secret)
	twice, _ := json.Marshal(string(once))
	thrice, _ := json.Marshal(string(twice))
	for _, text := range []string{secret, string(once), string(twice), string(thrice)} {
		got := r.String("before " + text + " after")
		if strings.Contains(got, "word") {
			t.Errorf("%q survived as %q", text, got)
		}
	}
	if got := r.String("ab cd"); got != "ab cd" {
		t.Errorf("short values must not be masked: %q", got)
	}
	var nilR *Redactor
	if nilR.String("x") != "x" {
		t.Error("a nil redactor masks nothing")
	}
}

func TestRedactorMasksLongestFirst(t *testing.T) {
	r := NewRedactor([]string{"secret", "secret-and-more"})
	if got := r.String("secret-and-more"); got != Mask {
		t.Fatalf("got %q", got)
	}
}
