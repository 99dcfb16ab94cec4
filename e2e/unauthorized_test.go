package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	corereport "github.com/mcptest/mcptest/core/report"
)

// TestURLServer401 points a suite at a server that refuses every request
// with 401 and an OAuth-style JSON body: the test's error gives the HTTP
// status, the WWW-Authenticate header and the credentials the suite
// configured, never a malformed JSON-RPC error, and never the token.
func TestURLServer401(t *testing.T) {
	const token = "tok-401-SECRET-value"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"invalid_token","error_description":"The access token is invalid"}`)
	}))
	defer srv.Close()
	suite := writeSuite(t, `
servers:
  remote:
    url: "`+srv.URL+`/mcp"
    auth:
      bearer_token_env: MCPTEST_E2E_401_TOKEN
tools:
  - name: refused
    server: remote
    tool: echo
    args: {message: x}
`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, []string{"MCPTEST_E2E_401_TOKEN=" + token}, "run", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	run, err := corereport.ReadRun(out)
	if err != nil || len(run.Tests) != 1 || run.Tests[0].Error == nil {
		t.Fatalf("report: %v %+v", err, run)
	}
	msg := run.Tests[0].Error.Message
	mustContain(t, "the test's error", msg, "HTTP 401 Unauthorized", `WWW-Authenticate: Bearer error="invalid_token"`, "$MCPTEST_E2E_401_TOKEN")
	if strings.Contains(msg, "malformed") {
		t.Errorf("error calls the 401 malformed: %s", msg)
	}
	for _, s := range []string{r.stdout, r.stderr, msg} {
		if strings.Contains(s, token) {
			t.Errorf("the token leaked: %s", s)
		}
	}
}
