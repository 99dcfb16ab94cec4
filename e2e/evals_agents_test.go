package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/sdk/report"
)

const liveEvalSuite = `
servers:
  demo:
    command: ["DEMO"]
evals:
  - name: live echo
    server: demo
    prompt: "Say hi through a tool."
    judge: {model: gpt-4o}
    rubric:
      criteria:
        - {name: used a tool, description: "LIVE: the agent called a tool and reported its result."}
`

// TestEvalLiveAgentCandidate: an eval without a response runs its prompt
// as an agent against the demo server (the stub model drives it), and the
// judge (an OpenAI-format fake) grades the whole run: the transcript with
// the tool call and the final reply reaches the judge, the report carries
// the trace and marks the candidate "agent".
func TestEvalLiveAgentCandidate(t *testing.T) {
	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "LIVE:", replies: []string{verdict(0.9, "called echo")}})
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, evalJudgeEnv(oa, nil), "eval", "--agent-model", "stub", "--reporter", "json="+out, writeSuite(t, liveEvalSuite))
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	tt := readRun(t, out).Tests[0]
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, out)))
	if tt.Status != report.StatusPassed || tt.Eval == nil || tt.Eval.Candidate != "agent" || tt.Agent == nil || len(tt.Agent.ToolCalls) != 1 ||
		!strings.HasPrefix(tt.Eval.Response, "stub: ") {
		t.Fatalf("live eval: %s %+v agent %+v", tt.Status, tt.Eval, tt.Agent)
	}
	body := string(oa.Requests()[0].Body)
	if !strings.Contains(body, "demo.") || !strings.Contains(body, "Final reply") || !strings.Contains(body, "stub: ") {
		t.Fatalf("the judge did not see the run:\n%s", body)
	}

	// Recorded once (server exchanges, the agent's model calls and the
	// judge's), the live eval replays from the cassette with no key and
	// no server process, to the same grade.
	tapes := t.TempDir()
	r = mcptestEnv(t, evalJudgeEnv(oa, nil), "record", "--evals", "--agent-model", "stub", "--cassette-dir", tapes, writeSuite(t, liveEvalSuite))
	if r.code != 0 {
		t.Fatalf("record --evals of a live eval:\n%s", r)
	}
	asked := oa.calls.Load()
	replay := strings.Replace(liveEvalSuite, `command: ["DEMO"]`, `cassette: "`+filepath.Join(tapes, "demo.json")+`"`, 1)
	r = mcptestEnv(t, evalJudgeEnv(nil, nil), "eval", "--no-cache", "--agent-model", "stub", "--reporter", "json="+out, writeSuite(t, replay))
	tt = readRun(t, out).Tests[0]
	if r.code != 0 || tt.Status != report.StatusPassed || tt.Agent == nil || !tt.Agent.Replayed || tt.Eval.Score != 0.9 || oa.calls.Load() != asked {
		t.Fatalf("replayed live eval: exit %d %s %+v %+v\n%s", r.code, tt.Status, tt.Eval, tt.Error, r)
	}
	assertNoOrphans(t)
}

const metricsSuite = `
servers:
  demo:
    command: ["DEMO"]
agents:
  - name: judged run
    model: gpt-4o
    servers: [demo]
    prompt: "Echo hello."
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: echo}}
    eval:
      mcp_use: {threshold: 0.6}
      rubric:
        criteria:
          - {name: polite, description: "POLITE: the final reply is polite."}
`

const multiTurnOnlySuite = `
servers:
  demo:
    command: ["DEMO"]
agents:
  - name: single prompt
    model: gpt-4o
    servers: [demo]
    prompt: "Echo hello."
    eval:
      multi_turn_mcp_use: {}
`

// TestAgentEvalMetrics: an agent test's eval: metrics are judged by the
// agent's own model after its run, one report row each (eval.<metric>
// with score, threshold and grade) that gates the exit code: a metric
// below its threshold fails the test. multi_turn_mcp_use on a
// single-prompt run defers the test (exit 0, not passed).
func TestAgentEvalMetrics(t *testing.T) {
	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "called the right tools", replies: []string{verdict(0.9, "echo was right")}},
		&judgeRule{needle: "POLITE:", replies: []string{verdict(0.2, "curt")}})
	oa.Push(vendorfake.Reply{Calls: []vendorfake.Call{{ID: "call_1", Name: "echo", Args: `{"message":"hello"}`}}, InputTokens: 40, OutputTokens: 10},
		vendorfake.Reply{Text: "hello", InputTokens: 60, OutputTokens: 8})
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, evalJudgeEnv(oa, nil), "run", "--reporter", "json="+out, writeSuite(t, metricsSuite))
	if r.code != 1 {
		t.Fatalf("want exit 1 (the rubric metric fails):\n%s", r)
	}
	run := readRun(t, out)
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, out)))
	tt := run.Tests[0]
	if tt.Status != report.StatusFailed || len(tt.Assertions) != 3 {
		t.Fatalf("judged run: %s %+v", tt.Status, tt.Assertions)
	}
	use, rub := tt.Assertions[1], tt.Assertions[2]
	if use.Matcher != "eval.mcp_use" || use.Status != report.StatusPassed || use.Score == nil || *use.Score != 0.9 || use.Threshold == nil || *use.Threshold != 0.6 ||
		use.Eval == nil || use.Eval.Metric != "mcp_use" || use.Eval.JudgeModel != "gpt-4o" {
		t.Errorf("mcp_use row: %+v %+v", use, use.Eval)
	}
	if rub.Matcher != "eval.rubric" || rub.Status != report.StatusFailed || rub.Eval == nil || *rub.Threshold != 0.7 {
		t.Errorf("rubric row: %+v", rub)
	}
	if run.Costs == nil || run.Costs.Calls != 2 || run.Costs.TotalUSD <= 0 {
		t.Errorf("costs: %+v", run.Costs)
	}

	oa.Push(vendorfake.Reply{Text: "hello", InputTokens: 60, OutputTokens: 8})
	r = mcptestEnv(t, evalJudgeEnv(oa, nil), "run", "--reporter", "json="+out, writeSuite(t, multiTurnOnlySuite))
	tt = readRun(t, out).Tests[0]
	if r.code != 0 || tt.Status != report.StatusDeferred || len(tt.Assertions) != 1 || tt.Assertions[0].Status != report.StatusDeferred ||
		!strings.Contains(tt.Error.Message, "multi-turn") {
		t.Fatalf("multi_turn on one prompt: exit %d %s %+v %+v\n%s", r.code, tt.Status, tt.Error, tt.Assertions, r)
	}
	assertNoOrphans(t)
}

// TestEvalJudgeCassette: mcptest record --evals writes a fixed-response
// eval's judge calls into its server's cassette; pointed at the cassette,
// the eval grades with no key at all and nothing sent, with the same
// verdict; and the bundled examples/rubric-eval.yml runs key-free from
// its committed cassette.
func TestEvalJudgeCassette(t *testing.T) {
	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "Names the release version", replies: []string{verdict(1, "names 2.3.0")}},
		&judgeRule{needle: "Describes what the release changed", replies: []string{verdict(0.5, "vague")}},
		&judgeRule{needle: "politely refuses", replies: []string{verdict(0.9, "refuses")}})
	tapes := t.TempDir()
	suite := strings.Replace(gradedSuite, "claude-sonnet-4-5", "gpt-4o", 1)
	r := mcptestEnv(t, evalJudgeEnv(oa, nil), "record", "--evals", "--cassette-dir", tapes, writeSuite(t, suite))
	if r.code != 1 || oa.calls.Load() != 3 {
		t.Fatalf("record --evals: exit %d, %d requests\n%s", r.code, oa.calls.Load(), r)
	}
	cas, err := os.ReadFile(filepath.Join(tapes, "demo.json"))
	if err != nil || strings.Contains(string(cas), openAIJudgeKey) {
		t.Fatalf("cassette: %v (or it holds the key)", err)
	}
	replay := strings.Replace(suite, `command: ["DEMO"]`, `cassette: "`+filepath.Join(tapes, "demo.json")+`"`, 1)
	out := filepath.Join(t.TempDir(), "run.json")
	r = mcptestEnv(t, evalJudgeEnv(nil, nil), "eval", "--no-cache", "--reporter", "json="+out, writeSuite(t, replay))
	run := readRun(t, out)
	if r.code != 1 || oa.calls.Load() != 3 || run.Tests[0].Status != report.StatusFailed || run.Tests[1].Status != report.StatusPassed {
		t.Fatalf("replay: exit %d, %d requests, %+v\n%s", r.code, oa.calls.Load(), run.Tests, r)
	}
	if want := (1 + 0.5*2) / 3; run.Tests[0].Eval.Score < want-1e-9 || run.Tests[0].Eval.Score > want+1e-9 {
		t.Errorf("replayed score %v", run.Tests[0].Eval.Score)
	}

	r = mcptestEnv(t, evalJudgeEnv(nil, nil), "eval", "--no-cache", "--reporter", "json="+out, "examples/rubric-eval.yml")
	run = readRun(t, out)
	if r.code != 0 || run.Summary.Passed != run.Summary.Total || run.Summary.Total == 0 {
		t.Fatalf("examples/rubric-eval.yml: exit %d %+v\n%s", r.code, run.Summary, r)
	}
}
