package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
)

// hostModelSuite has one test whose assertion a private matcher plugin
// judges by asking a model through the host (B5).
const hostModelSuite = `
servers:
  demo:
    command: ["DEMO"]
providers:
  gateway:
    type: openai
    base_url: GW_URL
    api_key_env: GATEWAY_KEY
tools:
  - name: greeting judged by a model
    server: demo
    tool: echo
    args: {message: "hello there"}
    expect:
      - target: result.content[0].text
        matcher: {model-says: {model: MODEL, provider: PROVIDER, contains: "yes"}}
`

func hostSuite(t *testing.T, model, provider, gateway string) string {
	r := strings.NewReplacer("MODEL", model, "PROVIDER", `"`+provider+`"`, "GW_URL", gateway)
	return writeSuite(t, r.Replace(hostModelSuite))
}

// TestMatcherPluginCallsAModelThroughTheHost: a private matcher plugin
// reaches a model only through mcptest: the host routes its call to the
// bundled openai provider plugin with the key from OPENAI_API_KEY and the
// base URL from OPENAI_BASE_URL (a local fake), or through a providers:
// entry; the verdict follows the model's answer, and a key echoed back by
// the vendor never reaches the report.
func TestMatcherPluginCallsAModelThroughTheHost(t *testing.T) {
	dir := install(t, "askmodel")
	fake := vendorfake.New(t, vendorfake.OpenAI)
	const key = "sk-host-route-0123456789"
	fake.Key = key
	env := []string{"OPENAI_API_KEY=" + key, "OPENAI_BASE_URL=" + fake.URL, "MCPTEST_PROVIDER_BACKOFF=1ms"}

	fake.Push(vendorfake.Reply{Text: "yes", InputTokens: 20, OutputTokens: 1})
	r := mcptestEnv(t, env, "run", "--plugin-dir", dir, hostSuite(t, "gpt-4o-mini", "", "http://unused"))
	if r.code != 0 {
		t.Fatalf("a yes from the model should pass:\n%s\nrequests: %d", r, len(fake.Requests()))
	}
	req := fake.Requests()[0]
	if req.Header.Get("Authorization") != "Bearer "+key || req.JSON()["model"] != "gpt-4o-mini" ||
		!strings.Contains(string(req.Body), `Is this a greeting? \"hello there\"`) {
		t.Fatalf("the vendor got %v %s", req.Header, req.Body)
	}

	// The model says no, echoing the key: the test fails, the key is masked.
	fake.Push(vendorfake.Reply{Text: "no, and your key is " + key})
	report := filepath.Join(t.TempDir(), "run.json")
	r = mcptestEnv(t, env, "run", "--plugin-dir", dir, "--reporter", "json="+report, "--reporter", "pretty", hostSuite(t, "gpt-4o-mini", "", "http://unused"))
	if r.code != 1 {
		t.Fatalf("a no from the model should fail:\n%s", r)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b)+r.stdout+r.stderr, key) || !strings.Contains(string(b), "[REDACTED]") {
		t.Fatalf("the key is not masked in the report:\n%s\n%s", b, r)
	}

	// Through a providers: entry, whose key variable the suite names.
	gw := vendorfake.New(t, vendorfake.OpenAI)
	gw.Key = "gw-key-0123456789"
	gw.Push(vendorfake.Reply{Text: "yes"})
	r = mcptestEnv(t, append(env, "GATEWAY_KEY=gw-key-0123456789"), "run", "--plugin-dir", dir, hostSuite(t, "vendor/some-model", "gateway", gw.URL))
	if r.code != 0 || len(gw.Requests()) != 1 {
		t.Fatalf("through the gateway:\n%s", r)
	}
}

// TestMatcherPluginModelWithoutKey: with no key for the model's family the
// plugin's call is refused with the variable named, the item is errored
// (exit 2), and no vendor is called.
func TestMatcherPluginModelWithoutKey(t *testing.T) {
	dir := install(t, "askmodel")
	fake := vendorfake.New(t, vendorfake.Anthropic)
	r := mcptestEnv(t, []string{"ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=" + fake.URL}, "run", "--plugin-dir", dir, hostSuite(t, "claude-sonnet-4-5", "", "http://unused"))
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "ANTHROPIC_API_KEY") || !strings.Contains(r.stdout+r.stderr, "deferred") {
		t.Fatalf("no key:\n%s", r)
	}
	if len(fake.Requests()) != 0 {
		t.Fatal("the vendor was called without a key")
	}
}
