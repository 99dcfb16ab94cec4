package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// noModelKeys blanks every model key, so no test can reach a vendor and a
// real model is deferred whatever the machine's environment holds.
var noModelKeys = []string{
	"ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "GEMINI_API_KEY=", "GOOGLE_API_KEY=", "MISTRAL_API_KEY=",
	"MCPTEST_REQUIRE_MODELS=", "MCPTEST_STUB_SCRIPT=",
}

// agentStubSuite drives the demo server with the stub model, which calls
// the tool it is offered once and then reports what it returned.
const agentStubSuite = `servers:
  demo:
    command: ["DEMO"]
agents:
  - name: the stub echoes
    model: stub
    servers: [demo]
    prompt: say hi
    expect:
      - {target: "tool_calls[0].server", matcher: {exact: demo}}
      - {target: "tool_calls[0].hop_index", matcher: {exact: 0}}
      - {target: tool_calls.length, matcher: {exact: 1}}
      - {target: "tool_results[0].isError", matcher: {exact: false}}
      - {target: "tool_results[0].server", matcher: {exact: demo}}
      - {target: redundant_tool_calls, matcher: {exact: 0}}
      - {target: "tool_calls[0].inputs_digest", matcher: {regex: "^sha256:[0-9a-f]{32}$"}}
      - {target: final_response, matcher: {starts-with: "stub: "}}
      - {target: conversation.stop_reason, matcher: {exact: completed}}
      - {target: conversation.message_count, matcher: {exact: 4}}
      - {target: conversation.tokens.total, matcher: {regex: "^[1-9][0-9]*$"}}
`

func TestAgentStubRunsAgainstTheDemoServer(t *testing.T) {
	jsonPath := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, noModelKeys, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+jsonPath, writeSuite(t, agentStubSuite))
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "PASS  the stub echoes [stub]", "1 passed")
	run := readRun(t, jsonPath)
	if len(run.Tests) != 1 || run.Tests[0].Block != "agents" || len(run.Tests[0].Assertions) != 11 {
		t.Fatalf("report tests = %+v", run.Tests)
	}
}

// agentDeferSuite has one model that runs offline and two whose keys are
// missing.
const agentDeferSuite = `servers:
  demo:
    command: ["DEMO"]
agents:
  - name: routes to a tool
    models: [stub, claude-sonnet-4-5, gpt-4o]
    servers: [demo]
    prompt: say hi
    expect:
      - {target: tool_calls.length, matcher: {exact: 1}}
`

// TestAgentWithoutKeyIsDeferredInEveryConsumer runs an agent matrix whose
// real models have no key: exit 0, but no format counts the deferred rows
// as passed, each says why (naming the variable), and the real consumers
// (the report schema, the JUnit XSD, tap-parser) accept the output.
// --require-models and MCPTEST_REQUIRE_MODELS=1 make the same run exit 2.
func TestAgentWithoutKeyIsDeferredInEveryConsumer(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run", "--no-color"}
	for _, f := range []string{"json", "junit", "tap", "pretty", "markdown", "badge", "html"} {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--reporter", f+"="+files[f])
	}
	suite := writeSuite(t, agentDeferSuite)
	r := mcptestEnv(t, noModelKeys, append(args, suite)...)
	if r.code != 0 {
		t.Fatalf("a run with only deferred and passed tests must exit 0:\n%s", r)
	}

	raw := []byte(read(t, files["json"]))
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), raw)
	run := readRun(t, files["json"])
	want := report.Summary{Total: 3, Passed: 1, Deferred: 2}
	got := run.Summary
	got.DurationMS = 0
	if got != want || run.ExitCode != 0 {
		t.Fatalf("json summary %+v exit %d, want %+v exit 0", got, run.ExitCode, want)
	}
	for _, tc := range run.Tests {
		if strings.Contains(tc.Name, "[stub]") {
			continue
		}
		if tc.Status != report.StatusDeferred || tc.Error == nil ||
			!strings.Contains(tc.Error.Message, "ANTHROPIC_API_KEY") && !strings.Contains(tc.Error.Message, "OPENAI_API_KEY") {
			t.Errorf("%s: %s %+v, want deferred naming the key variable", tc.Name, tc.Status, tc.Error)
		}
	}

	junit := read(t, files["junit"])
	mustContain(t, "junit", junit, `<skipped message="deferred: model &#34;claude-sonnet-4-5&#34; (anthropic) has no key: set ANTHROPIC_API_KEY"`, `skipped="2"`)
	if _, err := exec.LookPath("xmllint"); need(t, "xmllint", err == nil) {
		out, err := exec.Command("xmllint", "--noout", "--schema", filepath.Join(thirdParty(t), "junit-windyroad.xsd"), files["junit"]).CombinedOutput()
		if err != nil {
			t.Fatalf("xmllint: %v\n%s", err, out)
		}
	}

	tap := parseTAP(t, files["tap"])
	if c := tap.Complete; !c.OK || c.Count != 3 || c.Pass != 3 || c.Skip != 2 || c.Fail != 0 {
		t.Errorf("tap-parser: %+v", c)
	}
	mustContain(t, "tap", read(t, files["tap"]), "# SKIP deferred: model \"gpt-4o\" (openai) has no key: set OPENAI_API_KEY", "2 deferred")

	mustContain(t, "pretty", read(t, files["pretty"]), "DEFERRED routes to a tool [claude-sonnet-4-5]", "1 passed, 0 failed, 0 errored, 0 skipped, 2 deferred (3 tests)")
	mustContain(t, "markdown", read(t, files["markdown"]), "2 deferred", "⏸️ deferred")
	var badge struct{ Message string }
	if err := json.Unmarshal([]byte(read(t, files["badge"])), &badge); err != nil || badge.Message != "1/1 passed, 2 deferred" {
		t.Errorf("badge = %q (%v)", badge.Message, err)
	}
	mustContain(t, "html", read(t, files["html"]), `data-count="deferred">2<`)

	for _, how := range [][]string{{"--require-models"}, {}} {
		env := append([]string(nil), noModelKeys...)
		if len(how) == 0 {
			env = append(env, "MCPTEST_REQUIRE_MODELS=1")
		}
		r := mcptestEnv(t, env, append(append([]string{"run", "--no-color"}, how...), suite)...)
		if r.code != 2 || !strings.Contains(r.stdout, "set ANTHROPIC_API_KEY") {
			t.Errorf("require models (%v): want exit 2 naming the key:\n%s", how, r)
		}
	}
}

// stubScript writes a stub script and returns the environment naming it.
func stubScript(t *testing.T, steps string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`{"script": `+steps+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(append([]string(nil), noModelKeys...), "MCPTEST_STUB_SCRIPT="+path)
}

// agentRecoverySuite injects a hang into echo; the scripted stub calls
// echo, is told it timed out, and answers.
const agentRecoverySuite = `servers:
  demo:
    command: ["DEMO"]
faults:
  - {name: stuck-echo, target: {tool: echo}, kind: hang}
agents:
  - name: gives up on a hung echo
    model: stub
    servers: [demo]
    inject: [stuck-echo]
    prompt: echo ping
    recovery: {max_detection_ms: 2500, max_recovery_ms: 6000, require_clean_timeout: true}
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: echo}}
      - {target: "tool_calls[0].args.message", matcher: {exact: ping}}
      - {target: "tool_results[0].isError", matcher: {exact: true}}
      - {target: "tool_results[0].timed_out", matcher: {exact: true}}
      - {target: "tool_results[0].fault", matcher: {exact: stuck-echo}}
      - {target: recovery.detection_ms, matcher: {exact: 2500}}
      - {target: final_response, matcher: {contains: "down"}}
`

// agentCapsSuite: every test but the first trips a cap or the recovery
// gate against a stub that keeps calling echo.
const agentCapsSuite = `servers:
  demo:
    command: ["DEMO"]
faults:
  - {name: stuck-echo, target: {tool: echo}, kind: hang}
  - {name: slow-echo, target: {server: demo, tool: echo}, kind: slow, delay_ms: 2000}
agents:
  - {name: turns, model: stub, servers: [demo], prompt: p, max_turns: 2}
  - {name: calls, model: stub, servers: [demo], prompt: p, max_tool_calls: 1}
  - {name: tokens, model: stub, servers: [demo], prompt: p, token_budget: 150}
  - {name: time, model: stub, servers: [demo], prompt: p, time_budget: 3s, inject: [slow-echo]}
  - name: loops on a hung echo
    model: stub
    servers: [demo]
    prompt: p
    max_turns: 3
    inject: [stuck-echo]
    recovery: {max_detection_ms: 2500}
`

// TestAgentFaultsAndCaps runs injected faults (in virtual time) and every
// run-wide cap through the real binaries with the scripted stub model.
func TestAgentFaultsAndCaps(t *testing.T) {
	t.Run("recovers", func(t *testing.T) {
		env := stubScript(t, `[{"tool_calls": [{"name": "echo", "arguments": {"message": "ping"}}]}, {"text": "the echo tool is down"}]`)
		jsonPath := filepath.Join(t.TempDir(), "run.json")
		r := mcptestEnv(t, env, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+jsonPath, writeSuite(t, agentRecoverySuite))
		if r.code != 0 {
			t.Fatalf("want exit 0:\n%s", r)
		}
		run := readRun(t, jsonPath)
		var gate []string
		for _, a := range run.Tests[0].Assertions {
			if strings.HasPrefix(a.Matcher, "recovery.") {
				gate = append(gate, a.Matcher+"="+string(a.Status))
			}
		}
		if strings.Join(gate, ",") != "recovery.max_detection_ms=passed,recovery.recovered=passed,recovery.max_recovery_ms=passed,recovery.require_clean_timeout=passed" {
			t.Errorf("recovery gate = %v", gate)
		}
	})
	t.Run("caps", func(t *testing.T) {
		step := `{"tool_calls": [{"name": "echo", "arguments": {"message": "again"}}], "usage": {"input_tokens": 100, "output_tokens": 10}}`
		env := stubScript(t, "["+strings.Repeat(step+",", 5)+step+"]")
		jsonPath := filepath.Join(t.TempDir(), "run.json")
		r := mcptestEnv(t, env, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+jsonPath, writeSuite(t, agentCapsSuite))
		if r.code != 1 {
			t.Fatalf("tripped caps are quality failures, want exit 1:\n%s", r)
		}
		want := map[string]string{
			"turns [stub]":  "turn_budget: max_turns 2",
			"calls [stub]":  "tool_call_budget: max_tool_calls 1",
			"tokens [stub]": "token_budget: token_budget 150 crossed: 220 tokens",
			"time [stub]":   "time_budget: time_budget 3s passed",
		}
		run := readRun(t, jsonPath)
		for _, tc := range run.Tests {
			if tc.Status != report.StatusFailed {
				t.Errorf("%s: %s, want failed", tc.Name, tc.Status)
				continue
			}
			if w, ok := want[tc.Name]; ok {
				if got := tc.Error.Kind + ": " + tc.Error.Message; !strings.HasPrefix(got, w) {
					t.Errorf("%s: error %q, want %q", tc.Name, got, w)
				}
				continue
			}
			// The looping agent: its turn budget trips and the gate says it
			// never recovered.
			if tc.Error == nil || tc.Error.Kind != "turn_budget" {
				t.Errorf("%s: error %+v", tc.Name, tc.Error)
			}
			var failed []string
			for _, a := range tc.Assertions {
				if a.Status == report.StatusFailed {
					failed = append(failed, a.Matcher)
				}
			}
			if strings.Join(failed, ",") != "recovery.recovered" {
				t.Errorf("%s: failed checks %v", tc.Name, failed)
			}
		}
	})
}

// TestAgentDanglingInjectIsALoadError: a fault name no fault has stops the
// run before anything starts (exit 2), naming the place and the likely
// name.
func TestAgentDanglingInjectIsALoadError(t *testing.T) {
	suite := writeSuite(t, `servers:
  demo:
    command: ["DEMO"]
faults:
  - {name: stuck, target: {tool: echo}, kind: hang}
agents:
  - {name: a, model: stub, servers: [demo], prompt: p, inject: [stuk]}
`)
	r := mcptestEnv(t, noModelKeys, "run", suite)
	if r.code != 2 || !strings.Contains(r.stderr, `/agents/0/inject/0: unknown fault "stuk" (did you mean "stuck"?)`) {
		t.Fatalf("want exit 2 naming the fault:\n%s", r)
	}
}

// TestAgentRecordThenReplayOffline records an agent run's MCP traffic
// (tools/list and the tool calls) with mcptest record, then runs the same
// agent test against the cassette with the demo server gone.
func TestAgentRecordThenReplayOffline(t *testing.T) {
	work := t.TempDir()
	demo := filepath.Join(work, "demo-server")
	raw, err := os.ReadFile(filepath.Join(binDir, "mcptest-demo-server"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(demo, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	agents := strings.SplitN(agentStubSuite, "agents:", 2)[1]
	write := func(name, text string) string {
		path := filepath.Join(work, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	live := write("live.yml", "servers:\n  demo:\n    command: [\""+demo+"\"]\nagents:"+agents)
	if r := mcptestIn(t, work, noModelKeys, "record", live); r.code != 0 {
		t.Fatalf("record:\n%s", r)
	}
	cassette := read(t, filepath.Join(work, "cassettes", "demo.json"))
	mustContain(t, "cassette", cassette, `"tools/list"`, `"tools/call"`)
	if err := os.Remove(demo); err != nil {
		t.Fatal(err)
	}
	replay := write("replay.yml", "servers:\n  demo:\n    cassette: ./cassettes/demo.json\nagents:"+agents)
	if r := mcptestIn(t, work, noModelKeys, "run", "--no-color", replay); r.code != 0 || !strings.Contains(r.stdout, "PASS  the stub echoes [stub]") {
		t.Fatalf("replay without the server:\n%s", r)
	}
}
