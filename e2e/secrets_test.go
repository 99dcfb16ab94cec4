package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startHTTPDemo runs the demo server over Streamable HTTP and returns its
// endpoint URL.
func startHTTPDemo(t *testing.T) string {
	t.Helper()
	return startDemoMode(t, "--http")
}

// TestSecretsNeverReachAnyReport plants a bearer token and an env-backed
// header, makes the server echo both back inside a failing test (so they
// land in the failure, the response and the frames), and checks that no
// report of any format, nor mcptest's own output, contains either value.
func TestSecretsNeverReachAnyReport(t *testing.T) {
	const token = "tok-3f9a7c1e-SECRET-do-not-print"
	const apiKey = "key-88d1\"quoted\"-SECRET"
	url := startHTTPDemo(t)
	suite := writeSuite(t, `
servers:
  remote:
    url: "`+url+`"
    auth:
      bearer_token_env: MCPTEST_E2E_TOKEN
    headers:
      X-Api-Key:
        env: MCPTEST_E2E_KEY
      X-Plain: visible
tools:
  - name: headers come back
    server: remote
    tool: request_headers
    expect:
      - target: result.content[0].text
        matcher:
          contains: "X-Plain"
      - target: result.content[0].text
        matcher:
          exact: "force a failure that shows the actual value"
`)
	dir := t.TempDir()
	args := []string{"run"}
	files := map[string]string{}
	for _, f := range formats {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--reporter", f+"="+files[f])
	}
	// A header added on the command line is masked like one in the suite.
	const flagKey = "flagkey-77-SECRET-cli"
	args = append(args, "--reporter", "pretty", "--header-env", "X-Flag-Key=MCPTEST_E2E_FLAGKEY", suite)
	r := mcptestEnv(t, []string{"MCPTEST_E2E_TOKEN=" + token, "MCPTEST_E2E_KEY=" + apiKey, "MCPTEST_E2E_FLAGKEY=" + flagKey}, args...)
	if r.code != 1 {
		t.Fatalf("want exit 1 (one assertion fails on purpose):\n%s", r)
	}
	outputs := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	for f, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(b)
	}
	// The plain header shows the echo really happened, so the secrets did
	// travel through the run and were masked, not merely absent.
	mustContain(t, "json report", outputs["json"], "X-Plain", "visible", "Bearer [REDACTED]", "X-Api-Key", "X-Flag-Key")
	for name, text := range outputs {
		for _, secret := range []string{token, apiKey, flagKey, `key-88d1\"quoted\"-SECRET`, "SECRET"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s contains the secret %q", name, secret)
			}
		}
	}
}
