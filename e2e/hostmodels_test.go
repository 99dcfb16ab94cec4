package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	rpt "github.com/mcptest/mcptest/sdk/report"
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
// plugin's call is refused with the variable named and no vendor is
// called; the assertion and its test are deferred (exit 0, never counted
// as passed), and --require-models (or MCPTEST_REQUIRE_MODELS=1) makes
// them errors (exit 2). Until the match RPC carried deferrals, such a
// test ended errored.
func TestMatcherPluginModelWithoutKey(t *testing.T) {
	dir := install(t, "askmodel")
	fake := vendorfake.New(t, vendorfake.Anthropic)
	env := []string{"ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=" + fake.URL, "MCPTEST_REQUIRE_MODELS="}
	suite := hostSuite(t, "claude-sonnet-4-5", "", "http://unused")
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, env, "run", "--plugin-dir", dir, "--reporter", "json="+out, "--reporter", "pretty", suite)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "ANTHROPIC_API_KEY") {
		t.Fatalf("no key: want exit 0 and the variable named:\n%s", r)
	}
	run := readRun(t, out)
	tt := run.Tests[0]
	if tt.Status != rpt.StatusDeferred || tt.Assertions[0].Status != rpt.StatusDeferred ||
		!strings.Contains(tt.Assertions[0].Error, "ANTHROPIC_API_KEY") || tt.Error == nil || !strings.Contains(tt.Error.Message, "ANTHROPIC_API_KEY") ||
		run.Summary.Deferred != 1 || run.Summary.Passed != 0 {
		t.Fatalf("want a deferred test naming the variable: %+v\nsummary %+v", tt, run.Summary)
	}

	for _, args := range [][]string{{"--require-models"}, nil} {
		e := env
		if args == nil {
			e = append(append([]string(nil), env...), "MCPTEST_REQUIRE_MODELS=1")
		}
		r = mcptestEnv(t, e, append(append([]string{"run", "--plugin-dir", dir}, args...), suite)...)
		if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "ANTHROPIC_API_KEY") || !strings.Contains(r.stdout+r.stderr, "require-models") {
			t.Fatalf("%v: a missing key should be an error:\n%s", args, r)
		}
	}
	if len(fake.Requests()) != 0 {
		t.Fatal("the vendor was called without a key")
	}
}
