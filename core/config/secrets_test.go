package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShortSecretsRefused: a variable named by a secret field whose value
// is too short to mask is a load error at that field; a detected provider
// variable the suite does not name is skipped.
func TestShortSecretsRefused(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"suite.yml": `servers:
  api:
    url: "https://api.example.com/mcp"
    auth:
      bearer_token_env: SHORT_TOKEN
    headers:
      X-Key:
        env: SHORT_KEY
      X-Long:
        env: LONG_KEY
`,
	})
	env := map[string]string{"SHORT_TOKEN": "ab", "SHORT_KEY": "xyz", "LONG_KEY": "long-enough", "OPENAI_API_KEY": "x"}
	_, err := LoadWith(filepath.Join(dir, "suite.yml"), envOptions(env))
	if err == nil {
		t.Fatal("no error for secrets of 2 and 3 bytes")
	}
	msg := err.Error()
	for _, want := range []string{
		"suite.yml:4:5: /servers/api/auth/bearer_token_env: the secret in $SHORT_TOKEN is 2 byte(s) long; secrets must be at least 4 bytes",
		"suite.yml:7:7: /servers/api/headers/X-Key/env: the secret in $SHORT_KEY is 3 byte(s) long",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "OPENAI_API_KEY") || strings.Contains(msg, "LONG_KEY") {
		t.Errorf("unexpected error:\n%s", msg)
	}

	env["SHORT_TOKEN"], env["SHORT_KEY"] = "abcd", "wxyz"
	s, err := LoadWith(filepath.Join(dir, "suite.yml"), envOptions(env))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Secrets, []string{"abcd", "long-enough", "wxyz"}) {
		t.Errorf("Secrets = %q", s.Secrets)
	}
}
