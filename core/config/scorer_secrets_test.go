package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestScorerEnvSecrets checks that a scorer's credential-like env values,
// resolved from ${VAR} at parse time, join the suite's secrets, while
// ordinary values and values too short to mask stay out.
func TestScorerEnvSecrets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.yml")
	suite := `servers:
  local:
    command: ["./server"]
scorers:
  - name: vendor
    type: exec
    command: ["./score"]
    env:
      VENDOR_API_KEY: ${VENDOR_API_KEY}
      SHORT_TOKEN: ab
      MODE: strict-and-long
`
	if err := os.WriteFile(path, []byte(suite), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VENDOR_API_KEY": "vk-1234567890"}
	s, err := LoadWith(path, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Scorers[0].Env["VENDOR_API_KEY"]; got != "vk-1234567890" {
		t.Fatalf("env not resolved at parse time: %q", got)
	}
	if !slices.Contains(s.Secrets, "vk-1234567890") {
		t.Errorf("secrets %d values, want the scorer's API key among them", len(s.Secrets))
	}
	for _, v := range []string{"ab", "strict-and-long"} {
		if slices.Contains(s.Secrets, v) {
			t.Errorf("secrets hold %q, which is no credential", v)
		}
	}
}
