package vars

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSecrets: values are collected once each and sorted; unset, empty
// and unnamed variables add nothing; a value shorter than the masking
// minimum is refused with an error naming the variable and its length,
// never the value.
func TestSecrets(t *testing.T) {
	env := map[string]string{"TOKEN": "token-value", "SAME": "token-value", "KEY": "abcd", "SHORT": "xyz", "EMPTY": ""}
	c := NewSecrets(func(name string) (string, bool) { v, ok := env[name]; return v, ok })
	for _, name := range []string{"TOKEN", "SAME", "KEY", "EMPTY", "UNSET", ""} {
		if err := c.Add(name); err != nil {
			t.Errorf("Add(%q) = %v", name, err)
		}
	}
	err := c.Add("SHORT")
	var short *ShortSecretError
	if !errors.Is(err, ErrShortSecret) || !errors.As(err, &short) || short.Name != "SHORT" || short.Len != 3 {
		t.Fatalf("Add(SHORT) = %#v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "$SHORT is 3 byte(s) long") || strings.Contains(msg, "xyz") {
		t.Errorf("message = %q", msg)
	}
	if got := c.Values(); !slices.Equal(got, []string{"abcd", "token-value"}) {
		t.Errorf("Values = %q", got)
	}
}
