package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The auth/* client scenarios of the conformance suite: each starts an
// MCP server that answers 401 and an authorization server (an identity
// provider too, for cross-app access), and checks what mcptest did as the
// OAuth client. examples/conformance/auth/ holds the suites;
// docs/authorization.md explains the flows.

// authScenario is one auth/* scenario and what must come out of it.
type authScenario struct {
	name string
	// want are check ids that must be among the scenario's successes.
	want []string
	// mcptest is a line mcptest's own output must hold: its verdict.
	mcptest string
	// secrets are fields of the scenario's context that must not appear
	// in any of mcptest's output.
	secrets []string
}

// passed is mcptest's verdict when the one test passes.
const passed = "1 passed, 0 failed, 0 errored, 0 skipped (1 test)"

var metadataChecks = []string{"authorization-server-metadata", "client-registration", "authorization-request",
	"pkce-code-challenge-sent", "pkce-s256-method-used", "token-request", "pkce-verifier-matches-challenge", "valid-bearer-token"}

var resourceChecks = []string{"token-endpoint-auth-method", "resource-parameter-in-authorization",
	"resource-parameter-in-token", "resource-parameter-valid-uri", "resource-parameter-consistency", "valid-bearer-token"}

var authScenarios = []authScenario{
	{name: "metadata-default", want: append([]string{"prm-pathbased-requested"}, metadataChecks...), mcptest: passed},
	{name: "metadata-var1", want: append([]string{"prm-pathbased-requested"}, metadataChecks...), mcptest: passed},
	{name: "metadata-var2", want: metadataChecks, mcptest: passed},
	{name: "metadata-var3", want: metadataChecks, mcptest: passed},
	{name: "basic-cimd", want: []string{"cimd-client-id-used", "authorization-request", "token-request", "valid-bearer-token"}, mcptest: passed},
	{name: "scope-from-www-authenticate", want: []string{"scope-from-www-authenticate", "valid-bearer-token"}, mcptest: passed},
	{name: "scope-from-scopes-supported", want: []string{"scope-from-scopes-supported", "valid-bearer-token"}, mcptest: passed},
	{name: "scope-omitted-when-undefined", want: []string{"scope-omitted-when-undefined", "valid-bearer-token"}, mcptest: passed},
	{name: "scope-step-up", want: []string{"scope-step-up-initial", "scope-step-up-escalation", "valid-bearer-token"}, mcptest: passed},
	// Every token is refused: mcptest stops after three authorizations and
	// reports the server's 403.
	{name: "scope-retry-limit", want: []string{"scope-retry-limit"}, mcptest: "HTTP 403 Forbidden"},
	{name: "token-endpoint-auth-basic", want: resourceChecks, mcptest: passed},
	{name: "token-endpoint-auth-post", want: resourceChecks, mcptest: passed},
	{name: "token-endpoint-auth-none", want: resourceChecks, mcptest: passed},
	{name: "pre-registration", want: []string{"pre-registration-auth", "valid-bearer-token"}, mcptest: passed, secrets: []string{"client_secret"}},
	{name: "2025-03-26-oauth-metadata-backcompat", want: []string{"authorization-server-metadata", "client-registration", "authorization-request", "token-request", "valid-bearer-token"}, mcptest: passed},
	{name: "2025-03-26-oauth-endpoint-fallback", want: []string{"client-registration", "authorization-request", "token-request", "valid-bearer-token"}, mcptest: passed},
	// The metadata names another resource: no authorization may start, and
	// the server does not start for mcptest.
	{name: "resource-mismatch", want: []string{"resource-mismatch-rejected"}, mcptest: "the protected-resource metadata names another resource"},
	{name: "offline-access-scope", want: []string{"sep-2207-offline-access-requested", "sep-2207-client-metadata-grant-types", "valid-bearer-token"}, mcptest: passed},
	{name: "offline-access-not-supported", want: []string{"sep-2207-offline-access-not-requested", "valid-bearer-token"}, mcptest: passed},
	{name: "client-credentials-basic", want: []string{"client-credentials-basic-auth", "valid-bearer-token"}, mcptest: passed, secrets: []string{"client_secret"}},
	{name: "client-credentials-jwt", want: []string{"client-credentials-jwt-verified", "valid-bearer-token"}, mcptest: passed, secrets: []string{"private_key_pem"}},
	{name: "cross-app-access-complete-flow", want: []string{"complete-flow-token-exchange", "complete-flow-jwt-bearer", "valid-bearer-token"}, mcptest: passed, secrets: []string{"client_secret", "idp_id_token"}},
}

// TestConformanceAuthScenarios runs every auth/* client scenario of the
// conformance suite with mcptest as the OAuth client: each must make its
// key checks, fail none, and agree with mcptest's own verdict. mcptest
// writes a JSON report too, and neither it nor the terminal output may
// hold a credential or token the scenario handed over or issued.
func TestConformanceAuthScenarios(t *testing.T) {
	conformanceCLI(t)
	if got := len(authScenarios) + len(conformanceScenarios); got != 26 {
		t.Fatalf("%d client scenarios listed, the suite has 26", got)
	}
	for _, sc := range authScenarios {
		t.Run(sc.name, func(t *testing.T) {
			suite := filepath.Join("examples", "conformance", "auth", sc.name+".yml")
			if v := mcptest(t, "validate", suite); v.code != 0 {
				t.Fatalf("%s does not validate:\n%s", suite, v)
			}
			report := filepath.Join(t.TempDir(), "report.json")
			run := runConformance(t, "auth/"+sc.name, clientScript+" --reporter pretty --reporter json="+report,
				"XDG_CONFIG_HOME="+t.TempDir())
			passedChecks, warnings, err := run.verdict()
			for _, w := range warnings {
				t.Errorf("warning: %s", w) // every auth scenario can be passed without one
			}
			if err != nil {
				t.Fatalf("scenario %s: %v\nclient stdout:\n%s\nclient stderr:\n%s", sc.name, err, run.stdout, run.stderr)
			}
			succeeded := map[string]bool{}
			for _, c := range run.checks {
				if c.Status == "SUCCESS" {
					succeeded[c.ID] = true
				}
			}
			for _, id := range sc.want {
				if !succeeded[id] {
					t.Errorf("scenario %s: no successful %q check; checks: %+v", sc.name, id, run.checks)
				}
			}
			mustContain(t, "mcptest's output", run.stdout, sc.mcptest)
			raw, _ := os.ReadFile(report)
			if len(raw) == 0 {
				t.Fatalf("no JSON report at %s; stderr:\n%s", report, run.stderr)
			}
			outputs := run.stdout + run.stderr + string(raw)
			for _, leak := range leakedSecrets(run, sc.secrets) {
				if strings.Contains(outputs, leak) {
					t.Errorf("scenario %s: a secret reached mcptest's output: %.12s…", sc.name, leak)
				}
			}
			t.Logf("scenario auth/%s: %d checks passed, 0 failed", sc.name, passedChecks)
		})
	}
}

// leakedSecrets lists the values that must stay out of mcptest's output:
// the named fields of the scenario's context, as the CLI logged it, and
// every access token the scenario's servers saw (the checks quote a
// prefix of each, which is enough to tell a leak).
func leakedSecrets(run conformanceRun, fields []string) []string {
	var out []string
	for _, f := range fields {
		// The CLI prints the context as JSON on its own output.
		key := `"` + f + `":"`
		if i := strings.Index(run.cliOutput, key); i >= 0 {
			rest := run.cliOutput[i+len(key):]
			if j := strings.Index(rest, `"`); j > 0 {
				v := rest[:j]
				if len(v) > 80 {
					v = v[40:80] // past a PEM's generic header
				}
				out = append(out, v)
			}
		}
	}
	return append(out, "test-token-", "cc-token-")
}
