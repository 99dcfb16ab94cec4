package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

var (
	stubOnce sync.Once
	stubDir  string
	stubErr  error
)

// stubPlugins returns a plugin folder holding the stub provider, built
// from source once per test binary (it serves the offline model `stub`).
func stubPlugins(t *testing.T) string {
	t.Helper()
	stubOnce.Do(func() {
		dir := filepath.Join(filepath.Dir(binDir), "stub-provider")
		exe := filepath.Join(dir, "build", "mcptest-provider-stub")
		build := exec.Command("go", "build", "-trimpath", "-o", exe, "./plugins/providers/stub")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			stubErr = &buildError{out: string(out), err: err}
			return
		}
		stubDir = filepath.Join(dir, "plugins")
		if err := os.MkdirAll(stubDir, 0o755); err != nil {
			stubErr = err
			return
		}
		if err := os.Chmod(stubDir, 0o755); err != nil {
			stubErr = err
		}
	})
	if stubErr != nil {
		t.Fatalf("build the stub provider: %v", stubErr)
	}
	if _, err := os.Stat(filepath.Join(stubDir, "stub")); err != nil {
		if r := mcptest(t, "plugins", "install", "--dir", stubDir, filepath.Join(filepath.Dir(stubDir), "build", "mcptest-provider-stub")); r.code != 0 {
			t.Fatalf("install the stub provider:\n%s", r)
		}
	}
	return stubDir
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// stubScript writes a script for the stub model and returns the
// environment that hands it to the plugin.
func stubScript(t *testing.T, steps string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`{"script": `+steps+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"MCPTEST_STUB_SCRIPT=" + path}
}

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

const echoScript = `[{"tool_calls": [{"name": "echo", "arguments": {"message": "hello"}}], "usage": {"input_tokens": 40, "output_tokens": 10}},
 {"text": "the echo tool said hello", "usage": {"input_tokens": 60, "output_tokens": 8}}]`

const agentSuiteLive = `
servers:
  demo:
    command: ["DEMO"]
agents:
  - name: echoes hello
    model: stub
    servers: [demo]
    prompt: PROMPT
    expect:
      - target: tool_calls[0].name
        matcher: {exact: echo}
      - target: final_response
        matcher: {contains: hello}
`

// An agent suite recorded once replays from its cassette with no
// provider plugin at all: same verdict, the trace marked replayed. A
// changed prompt fails with a diff of the request.
func TestAgentRecordAndReplayOffline(t *testing.T) {
	plugins := stubPlugins(t)
	env := stubScript(t, echoScript)
	tapes := t.TempDir()
	live := writeSuite(t, strings.Replace(agentSuiteLive, "PROMPT", "Say hello", 1))
	r := mcptestEnv(t, env, "record", "--plugin-dir", plugins, "--cassette-dir", tapes, live)
	if r.code != 0 || !strings.Contains(r.stderr, "model exchanges of 1 agent runs") {
		t.Fatalf("record:\n%s", r)
	}
	cas, err := os.ReadFile(filepath.Join(tapes, "demo.json"))
	if err != nil {
		t.Fatal(err)
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
	if len(doc.Models.Runs["echoes hello [stub]"]) != 2 || len(doc.Exchanges) == 0 {
		t.Fatalf("cassette: %d model calls recorded, %d server exchanges\n%s", len(doc.Models.Runs["echoes hello [stub]"]), len(doc.Exchanges), cas)
	}

	replaySuite := func(prompt string) string {
		s := strings.Replace(agentSuiteLive, "PROMPT", prompt, 1)
		s = strings.Replace(s, `command: ["DEMO"]`, `cassette: "`+filepath.Join(tapes, "demo.json")+`"`, 1)
		return writeSuite(t, s)
	}
	// No --plugin-dir and no script: the stub provider is not installed
	// anywhere this run looks, so only the recording can answer.
	out := filepath.Join(t.TempDir(), "replay.json")
	r = mcptest(t, "run", "--reporter", "json="+out, replaySuite("Say hello"))
	if r.code != 0 {
		t.Fatalf("replay:\n%s", r)
	}
	run := readRun(t, out)
	if a := run.Tests[0].Agent; run.Tests[0].Status != report.StatusPassed || a == nil || !a.Replayed || a.FinalResponse != "the echo tool said hello" {
		t.Fatalf("replayed test: %s %+v", run.Tests[0].Status, run.Tests[0].Agent)
	}

	r = mcptest(t, "run", "--reporter", "json="+out, replaySuite("Say goodbye"))
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
  per_test_usd_cents: 50
agents:
  - name: spends
    model: stub
    servers: [demo]
    prompt: Say hello
`

// A call that could cross the per-test cap is not sent: the test fails
// with the cap and the figures. The stub is free, so its script reports
// what each call cost (40 cents): the first two calls fit, the third
// would start at 80 cents spent.
func TestAgentBudgetStopsBeforeTheCall(t *testing.T) {
	plugins := stubPlugins(t)
	env := stubScript(t, `[
 {"tool_calls": [{"name": "echo", "arguments": {"message": "one"}}], "usage": {"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.4}},
 {"tool_calls": [{"name": "echo", "arguments": {"message": "two"}}], "usage": {"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.4}},
 {"text": "never sent", "usage": {"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.4}}]`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, env, "run", "--plugin-dir", plugins, "--reporter", "json="+out, "--reporter", "pretty", writeSuite(t, budgetSuite))
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	tr := readRun(t, out).Tests[0]
	if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "budget" ||
		!strings.Contains(tr.Error.Message, "per_test_usd_cents 50 cents would be crossed: 80 cents spent") {
		t.Fatalf("test: %s %+v", tr.Status, tr.Error)
	}
	if a := tr.Agent; a == nil || len(a.ModelCalls) != 2 || a.CostUSDCents == nil || *a.CostUSDCents != 80 {
		t.Fatalf("trace: %+v", tr.Agent)
	}
	mustContain(t, "pretty", r.stdout, "trajectory (stub", "tool call ✓ demo/echo", "budget:")
	assertNoOrphans(t)
}

// A budget on a model without a known price cannot be enforced: the run
// is refused before any server or plugin starts, naming the model.
func TestAgentBudgetNeedsAPrice(t *testing.T) {
	suite := strings.Replace(budgetSuite, "model: stub", "model: {provider: local, id: house-model}", 1) +
		"providers:\n  local: {type: openai, base_url: \"http://127.0.0.1:9/v1\"}\n"
	r := mcptest(t, "run", writeSuite(t, suite))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "suite.yml:", "/agents/0/models/0", `no price is known for model "house-model" of provider "local"`)
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
	plugins := stubPlugins(t)
	env := append(stubScript(t, `[{"tool_calls": [{"name": "echo", "arguments": {"message": "key `+houseKey+`"}}]},
 {"text": "the tool said key `+houseKey+`"}]`), "HOUSE_API_KEY="+houseKey)
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run", "--plugin-dir", plugins}
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
