package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/sdk/report"
)

// conventionKey reports whether key is an OpenInference attribute: a key
// of the conventions package, or a flattened list entry made of such keys
// joined by indexes (llm.input_messages.0.message.role).
func conventionKey(conv map[string]bool, key string) bool {
	if conv[key] {
		return true
	}
	var run []string
	sawIndex := false
	for _, p := range strings.Split(key, ".") {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			if len(run) == 0 || !conv[strings.Join(run, ".")] {
				return false
			}
			run, sawIndex = nil, true
			continue
		}
		run = append(run, p)
	}
	return sawIndex && len(run) > 0 && conv[strings.Join(run, ".")]
}

// fakeKey is the key the OpenAI fake accepts.
const fakeKey = "sk-e2e-fake-0123456789"

// openAIFake starts an OpenAI wire-format fake answering replies, and
// returns it with the environment that points the openai provider plugin
// at it.
func openAIFake(t *testing.T, replies ...vendorfake.Reply) (*vendorfake.Fake, []string) {
	t.Helper()
	f := vendorfake.New(t, vendorfake.OpenAI)
	f.Key = fakeKey
	f.Push(replies...)
	return f, append(append([]string(nil), noModelKeys...), "OPENAI_API_KEY="+fakeKey, "OPENAI_BASE_URL="+f.URL)
}

const agentSuiteLive = `
servers:
  demo:
    command: ["DEMO"]
agents:
  - name: echoes hello
    model: gpt-4o
    servers: [demo]
    prompt: PROMPT
    expect:
      - target: tool_calls[0].name
        matcher: {exact: echo}
      - target: final_response
        matcher: {contains: hello}
`

// An agent suite recorded once against a provider replays from its
// cassette with no key: the same verdict, nothing sent to the provider,
// the trace marked replayed. A changed prompt fails with a diff of the
// request.
func TestAgentRecordAndReplayOffline(t *testing.T) {
	fake, env := openAIFake(t,
		vendorfake.Reply{Calls: []vendorfake.Call{{ID: "call_1", Name: "echo", Args: `{"message":"hello"}`}}, InputTokens: 40, OutputTokens: 10},
		vendorfake.Reply{Text: "the echo tool said hello", InputTokens: 60, OutputTokens: 8})
	tapes := t.TempDir()
	live := writeSuite(t, strings.Replace(agentSuiteLive, "PROMPT", "Say hello", 1))
	r := mcptestEnv(t, env, "record", "--cassette-dir", tapes, live)
	if r.code != 0 || !strings.Contains(r.stderr, "model exchanges of 1 agent runs") || len(fake.Requests()) != 2 {
		t.Fatalf("record (%d requests reached the fake):\n%s", len(fake.Requests()), r)
	}
	cas, err := os.ReadFile(filepath.Join(tapes, "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cas), fakeKey) {
		t.Error("the provider key reached the cassette")
	}
	var doc struct {
		Exchanges []struct{ Method string }
		Models    struct {
			Runs map[string][]json.RawMessage
		}
	}
	if err := json.Unmarshal(cas, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Models.Runs["echoes hello [gpt-4o]"]) != 2 || len(doc.Exchanges) == 0 {
		t.Fatalf("cassette: %d model calls recorded, %d server exchanges\n%s", len(doc.Models.Runs["echoes hello [gpt-4o]"]), len(doc.Exchanges), cas)
	}

	replaySuite := func(prompt string) string {
		s := strings.Replace(agentSuiteLive, "PROMPT", prompt, 1)
		s = strings.Replace(s, `command: ["DEMO"]`, `cassette: "`+filepath.Join(tapes, "demo.json")+`"`, 1)
		return writeSuite(t, s)
	}
	// No key at all: a live run would be deferred; the replay passes.
	out := filepath.Join(t.TempDir(), "replay.json")
	r = mcptestEnv(t, noModelKeys, "run", "--reporter", "json="+out, replaySuite("Say hello"))
	if r.code != 0 {
		t.Fatalf("replay:\n%s", r)
	}
	run := readRun(t, out)
	if a := run.Tests[0].Agent; run.Tests[0].Status != report.StatusPassed || a == nil || !a.Replayed || a.FinalResponse != "the echo tool said hello" {
		t.Fatalf("replayed test: %s %+v", run.Tests[0].Status, run.Tests[0].Agent)
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("the replay reached the provider: %d requests", n)
	}
	// A replay spends nothing: its cost is zero, not the recorded usage
	// priced again.
	if a := run.Tests[0].Agent; a.CostUSDCents == nil || *a.CostUSDCents != 0 {
		t.Errorf("replayed run's cost: %v cents, want 0", a.CostUSDCents)
	}

	r = mcptestEnv(t, noModelKeys, "run", "--reporter", "json="+out, replaySuite("Say goodbye"))
	if r.code != 1 {
		t.Fatalf("replay of a changed prompt: want exit 1\n%s", r)
	}
	tr := readRun(t, out).Tests[0]
	if tr.Error == nil || tr.Error.Kind != "replay_mismatch" || !strings.Contains(tr.Error.Message, `-      "content": "Say hello"`) ||
		!strings.Contains(tr.Error.Message, `+      "content": "Say goodbye"`) {
		t.Fatalf("changed prompt: %s %+v", tr.Status, tr.Error)
	}
	assertNoOrphans(t)
}

const budgetSuite = `
servers:
  demo:
    command: ["DEMO"]
budget:
  per_test_usd_cents: 1
agents:
  - name: spends
    model: gpt-4o
    servers: [demo]
    prompt: Say hello
    max_tokens: 512
`

// A call that could cross the per-test cap is not sent: the test fails
// with the cap and the figures. At the openai plugin's gpt-4o price
// (10 dollars a million completion tokens) a call of max_tokens 512 may
// cost about 0.52 cents: the first fits in 1 cent and costs 0.53 (500
// completion tokens), the second could reach 1.05 and never reaches the
// provider.
func TestAgentBudgetStopsBeforeTheCall(t *testing.T) {
	fake, env := openAIFake(t,
		vendorfake.Reply{Calls: []vendorfake.Call{{ID: "call_1", Name: "echo", Args: `{"message":"one"}`}}, InputTokens: 100, OutputTokens: 500},
		vendorfake.Reply{Text: "never sent"})
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, env, "run", "--no-color", "--reporter", "json="+out, "--reporter", "pretty", writeSuite(t, budgetSuite))
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("%d requests reached the provider, want 1", n)
	}
	tr := readRun(t, out).Tests[0]
	if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "budget" ||
		!strings.Contains(tr.Error.Message, "per_test_usd_cents 1 cents would be crossed: 0.525 cents spent") {
		t.Fatalf("test: %s %+v", tr.Status, tr.Error)
	}
	if a := tr.Agent; a == nil || len(a.ModelCalls) != 1 || a.CostUSDCents == nil || *a.CostUSDCents < 0.52 || *a.CostUSDCents > 0.53 {
		t.Fatalf("trace: %+v", tr.Agent)
	}
	mustContain(t, "pretty", r.stdout, "trajectory (gpt-4o", "tool call ✓ demo/echo", "budget:")
	assertNoOrphans(t)
}

// A budget on a model without a known price cannot be enforced: the run
// is refused before any server or plugin starts, naming the model.
func TestAgentBudgetNeedsAPrice(t *testing.T) {
	suite := strings.Replace(budgetSuite, "model: gpt-4o", "model: {provider: local, id: house-model}", 1) +
		"providers:\n  local: {type: openai, base_url: \"http://127.0.0.1:9/v1\"}\n"
	r := mcptestEnv(t, noModelKeys, "run", writeSuite(t, suite))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "suite.yml:", "/agents/0/models/0", `no price is known for model "house-model" of provider "local"`)

	// Priced by its providers entry, the same model runs within the cap.
	fake := vendorfake.New(t, vendorfake.OpenAI)
	fake.Push(vendorfake.Reply{Text: "hello", InputTokens: 100, OutputTokens: 20})
	suite = strings.Replace(budgetSuite, "model: gpt-4o", "model: {provider: local, id: house-model}", 1) +
		"providers:\n  local:\n    type: openai\n    base_url: \"" + fake.URL + "\"\n    prices:\n      house-model: {input_per_mtok: 1, output_per_mtok: 2}\n"
	out := filepath.Join(t.TempDir(), "run.json")
	if r := mcptestEnv(t, noModelKeys, "run", "--reporter", "json="+out, writeSuite(t, suite)); r.code != 0 {
		t.Fatalf("priced by the entry: want exit 0:\n%s", r)
	}
	// 100 prompt tokens at 1 dollar a million and 20 at 2: 0.014 cents.
	if a := readRun(t, out).Tests[0].Agent; a == nil || a.CostUSDCents == nil || *a.CostUSDCents < 0.0139 || *a.CostUSDCents > 0.0141 {
		t.Errorf("trace: %+v", a)
	}
	assertNoOrphans(t)
}

const reportedSuite = `
servers:
  demo:
    command: ["DEMO"]
providers:
  house:
    type: openai
    base_url: "http://127.0.0.1:9/v1"
    api_key_env: HOUSE_API_KEY
agents:
  - name: echoes the key
    model: stub
    servers: [demo]
    system_prompt: Use the echo tool.
    prompt: Say hello
    expect:
      - target: tool_calls[0].name
        matcher: {exact: search}
`

// houseKey is a provider key the suite reads: it must be masked wherever
// the model or the server repeats it.
const houseKey = "hk-live-7Q2x9Zr4Lm8Np3"

// An agent test's run reaches every report: the JSON trace (schema-valid),
// the pretty trajectory, the HTML conversation and the OpenInference and
// OTLP agent, model and tool spans, whose attribute keys are the
// conventions package's. The provider key the model echoed through a
// tool is masked in all of them.
func TestAgentRunInEveryReport(t *testing.T) {
	env := append(stubScript(t, `[{"tool_calls": [{"name": "echo", "arguments": {"message": "key `+houseKey+`"}}]},
 {"text": "the tool said key `+houseKey+`"}]`), "HOUSE_API_KEY="+houseKey)
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run"}
	for _, f := range []string{"json", "openinference", "otlp", "html"} {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--reporter", f+"="+files[f])
	}
	args = append(args, "--reporter", "pretty", writeSuite(t, reportedSuite))
	r := mcptestEnv(t, env, args...)
	if r.code != 1 {
		t.Fatalf("want exit 1 (the expect fails):\n%s", r)
	}
	for name, path := range files {
		if b := read(t, path); strings.Contains(b, houseKey) || !strings.Contains(b, "REDACTED") {
			t.Errorf("%s: the key is not masked (masked form present: %v)", name, strings.Contains(b, "REDACTED"))
		}
	}
	if strings.Contains(r.stdout, houseKey) {
		t.Error("pretty shows the key")
	}

	validateJSONSchema(t, filepath.Join(root, "schemas", "report.v1.json"), []byte(read(t, files["json"])))
	a := readRun(t, files["json"]).Tests[0].Agent
	if a == nil || a.Model != "stub" || a.Family != "stub" || a.System != "Use the echo tool." || len(a.ModelCalls) != 2 ||
		len(a.ToolCalls) != 1 || a.ToolCalls[0].Server != "demo" || a.StopReason != "completed" {
		t.Fatalf("json trace: %+v", a)
	}
	mustContain(t, "pretty", r.stdout, "trajectory (stub, stopped: completed", "user      Say hello", "tool call ✓ demo/echo(")
	mustContain(t, "html", read(t, files["html"]), `class="conversation"`, "Use the echo tool.", "demo/echo")

	oi := openInferenceLines(t, files["openinference"])
	checkConventions(t, openInferenceConventions(t), oi)
	kinds := map[string]map[string]any{}
	for _, l := range oi {
		kinds[l["span_kind"].(string)] = attrs(l)
	}
	if a := kinds["AGENT"]; a == nil || a["agent.name"] != "echoes the key [stub]" || a["llm.token_count.total"] == nil {
		t.Errorf("agent span: %v", a)
	}
	if l := kinds["LLM"]; l == nil || l["llm.model_name"] != "stub" || l["llm.input_messages.0.message.role"] != "system" ||
		l["llm.output_messages.0.message.role"] != "assistant" {
		t.Errorf("llm span: %v", l)
	}
	if tl := kinds["TOOL"]; tl == nil || tl["tool.name"] != "echo" || !strings.Contains(tl["tool.parameters"].(string), "REDACTED") {
		t.Errorf("tool span: %v", tl)
	}
	if spans := otlpSpans(t, files["otlp"]); len(spans) != len(oi) {
		t.Errorf("%d OTLP spans for %d OpenInference lines", len(spans), len(oi))
	}
	assertNoOrphans(t)
}
