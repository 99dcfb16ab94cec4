package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
)

// TestInteropEverythingAgents runs the agent suite against server-everything
// and the demo server with the scripted stub model: a merged two-server
// catalogue, calls routed by prefix, a multi-turn conversation and an image
// result passed back to the model.
func TestInteropEverythingAgents(t *testing.T) {
	npmServer(t, "server-everything")
	env := append(append([]string(nil), noModelKeys...),
		"MCPTEST_STUB_SCRIPT="+filepath.Join(root, "examples/interop/fixtures/everything-agents-script.json"))
	// The demo server the suite names under ./bin is the one this test
	// package built.
	r, rep := runInterop(t, env, "--server-command", "demo="+filepath.Join(binDir, "mcptest-demo-server"),
		"examples/interop/everything-agents.yml")
	wantAllPassed(t, r, rep, 2)
}

// vendorAgentsSuite runs the same agent test on a model of each family and
// on an OpenAI-compatible providers: entry without a key.
const vendorAgentsSuite = `servers:
  everything:
    command: ["node", "EVERYTHING", "stdio"]
providers:
  local:
    type: openai
    base_url: LOCAL_URL
agents:
  - name: adds with a tool
    models: [claude-sonnet-4-5, gpt-4o, gemini-2.5-flash, mistral-large-latest, {provider: local, id: my-local-model}]
    servers: [everything]
    prompt: What is 40 plus 2?
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: get-sum}}
      - {target: "tool_calls[0].args", matcher: {exact: {a: 40, b: 2}}}
      - {target: "tool_results[0].result.content[0].text", matcher: {exact: "The sum of 40 and 2 is 42."}}
      - {target: final_response, matcher: {exact: "It is 42."}}
      - {target: conversation.tokens.total, matcher: {exact: 59}}
      - {target: conversation.stop_reason, matcher: {exact: completed}}
`

// TestInteropEverythingAgentsVendorFakes drives server-everything through
// every provider plugin against a local server speaking its vendor's wire
// format: the tool is offered in the vendor's shape, its result goes back
// in the vendor's native block, usage is summed, and no key reaches the
// report.
func TestInteropEverythingAgentsVendorFakes(t *testing.T) {
	entry := npmServer(t, "server-everything")
	families := []struct {
		vendor, keyEnv, key, baseEnv string
	}{
		{vendorfake.Anthropic, "ANTHROPIC_API_KEY", "sk-ant-e2e-secret-1", "ANTHROPIC_BASE_URL"},
		{vendorfake.OpenAI, "OPENAI_API_KEY", "sk-openai-e2e-secret-2", "OPENAI_BASE_URL"},
		{vendorfake.Gemini, "GEMINI_API_KEY", "gemini-e2e-secret-3", "GOOGLE_GEMINI_BASE_URL"},
		{vendorfake.Mistral, "MISTRAL_API_KEY", "mistral-e2e-secret-4", "MISTRAL_BASE_URL"},
	}
	env := append([]string(nil), noModelKeys...)
	var fakes []*vendorfake.Fake
	script := func(f *vendorfake.Fake) {
		f.Push(vendorfake.Reply{Calls: []vendorfake.Call{{ID: "call_1", Name: "get-sum", Args: `{"a":40,"b":2}`}}, InputTokens: 40, OutputTokens: 6},
			vendorfake.Reply{Text: "It is 42.", InputTokens: 10, OutputTokens: 3})
		fakes = append(fakes, f)
	}
	for _, fam := range families {
		f := vendorfake.New(t, fam.vendor)
		f.Key = fam.key
		script(f)
		env = append(env, fam.keyEnv+"="+fam.key, fam.baseEnv+"="+f.URL)
	}
	local := vendorfake.New(t, vendorfake.OpenAI)
	local.Key = "EMPTY" // a keyless providers: entry sends Bearer EMPTY
	script(local)

	suite := strings.NewReplacer("EVERYTHING", entry, "LOCAL_URL", local.URL).Replace(vendorAgentsSuite)
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	r, rep := runInterop(t, env, path)
	wantAllPassed(t, r, rep, 5)
	for i, f := range fakes {
		reqs := f.Requests()
		if len(reqs) != 2 || f.Pending() != 0 {
			t.Errorf("fake %d: %d requests, %d replies left", i, len(reqs), f.Pending())
			continue
		}
		first, second := string(reqs[0].Body), string(reqs[1].Body)
		if !strings.Contains(first, `"get-sum"`) || !strings.Contains(first, "What is 40 plus 2?") {
			t.Errorf("fake %d: the first request lacks the tool or the prompt:\n%s", i, first)
		}
		if !strings.Contains(second, "The sum of 40 and 2 is 42.") {
			t.Errorf("fake %d: the tool result did not go back to the model:\n%s", i, second)
		}
	}
	for _, fam := range families {
		if strings.Contains(r.stdout+r.stderr, fam.key) {
			t.Errorf("the %s key reached mcptest's output:\n%s", fam.vendor, r)
		}
	}
}
