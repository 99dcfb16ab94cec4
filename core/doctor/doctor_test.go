package doctor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
)

func load(t *testing.T, text string) *config.Suite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDoctorFindings checks every kind of server against a real machine:
// a missing command, an https server whose certificate is not trusted, a
// plain server that accepts connections, a closed port, and unset
// variables; each problem line carries its fix.
func TestDoctorFindings(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	s := load(t, `servers:
  gone:
    command: ["mcptest-doctor-no-such-command"]
  selfsigned:
    url: "`+tlsSrv.URL+`/mcp"
  up:
    url: "`+plain.URL+`/mcp"
    headers:
      X-Key: {env: DOCTOR_TEST_KEY}
  closed:
    url: "http://127.0.0.1:1/mcp"
    auth:
      bearer_token_env: DOCTOR_TEST_TOKEN
tools:
  - {name: t, server: up, tool: echo}
`)
	env := DefaultEnv()
	env.Getenv = func(name string) (string, bool) {
		if name == "DOCTOR_TEST_KEY" {
			return "a-long-enough-value", true
		}
		return "", false
	}
	var lines []string
	for _, f := range Suite(context.Background(), s, env) {
		lines = append(lines, f.String())
	}
	out := strings.Join(lines, "\n")
	for _, want := range []string{
		"fail server gone (",
		"command mcptest-doctor-no-such-command is not on PATH — fix: install",
		"fail server selfsigned (",
		"TLS to 127.0.0.1",
		"fix: give the CA under http.tls.ca_bundle_path",
		"ok   server up (",
		"accepts connections",
		"$DOCTOR_TEST_KEY (header X-Key) is set",
		"fail server closed (",
		"cannot connect to 127.0.0.1:1",
		"$DOCTOR_TEST_TOKEN (auth.bearer_token_env) is not set — fix: export DOCTOR_TEST_TOKEN=",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("findings lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "a-long-enough-value") {
		t.Error("a variable's value reached the findings")
	}
}
