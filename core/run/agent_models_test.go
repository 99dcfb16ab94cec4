package run_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/cassette"
	"github.com/mcptest/mcptest/core/cassette/modeltape"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// costlyModels serve echoModel with every answer using max_tokens
// completion tokens, counting the calls that reach a model.
type costlyModels struct{ calls atomic.Int32 }

type costly struct {
	echoModel
	calls *atomic.Int32
}

func (m costly) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	m.calls.Add(1)
	resp, err := m.echoModel.Complete(ctx, req)
	resp.Usage.OutputTokens = int64(req.MaxTokens)
	return resp, err
}

func (c *costlyModels) Model(_ context.Context, _ *config.Suite, ref config.ModelRef) (agent.Model, error) {
	return costly{echoModel{id: ref.ID}, &c.calls}, nil
}

const budgetSuite = `
servers:
  demo: {command: ["DEMO"]}
budget:
  per_test_usd_cents: 1
agents:
  - name: echoes
    model: m1
    servers: [demo]
    prompt: ping
`

// A call that could cross the per-test cap is refused before it reaches
// the model, and the test fails (a spend cap, like the loop's caps, is a
// quality failure) with the cap and the figures; the report keeps the
// trace so far.
func TestAgentBudgetRefusesTheCallThatWouldCrossIt(t *testing.T) {
	p, h := setup(t, budgetSuite)
	models := &costlyModels{}
	// 1,024 completion tokens (the default max_tokens) at 5.86 dollars a
	// million cost 0.6 cents: the first call fits in 1 cent, the second
	// would not.
	pricer := budget.PricerFunc(func(config.ModelRef) (sdk.ModelPrice, bool) {
		return sdk.ModelPrice{Model: "m1", OutputPerMTok: 5.86}, true
	})
	res := run.Execute(context.Background(), p, run.Options{Host: h, Models: models, Pricer: pricer})
	tr := res.Tests[0]
	if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "budget" ||
		!strings.Contains(tr.Error.Message, "per_test_usd_cents 1 cents") || !strings.Contains(tr.Error.Message, "not sent") {
		t.Fatalf("test = %s %+v", tr.Status, tr.Error)
	}
	if n := models.calls.Load(); n != 1 {
		t.Errorf("the model got %d calls, want 1: the refused call must not be sent", n)
	}
	if tr.Agent == nil || len(tr.Agent.ModelCalls) != 1 || len(tr.Agent.ToolCalls) != 1 || tr.Agent.Tokens.Completion != 1024 {
		t.Errorf("report trace: %+v", tr.Agent)
	}
	// Without the budget block the same run passes its two calls.
	p, h = setup(t, strings.Replace(budgetSuite, "budget:\n  per_test_usd_cents: 1\n", "", 1))
	if res := run.Execute(context.Background(), p, run.Options{Host: h, Models: &costlyModels{}, Pricer: pricer}); res.Tests[0].Status != report.StatusPassed {
		t.Errorf("without a budget: %s %+v", res.Tests[0].Status, res.Tests[0].Error)
	}
}

const tapeSuite = `
servers:
  demo: SERVER
agents:
  - name: echoes
    model: m1
    servers: [demo]
    prompt: PROMPT
    expect:
      - {target: final_response, matcher: {eq: "said ping"}}
`

// An agent run recorded live replays from the cassette with no model at
// all; a changed request fails with a diff; a run the cassette lacks is
// an error that says to record again.
func TestAgentRecordThenReplay(t *testing.T) {
	live := strings.NewReplacer("SERVER", `{command: ["DEMO"]}`, "PROMPT", "ping").Replace(tapeSuite)
	p, h := setup(t, live)
	crec := cassette.NewRecorder("demo", nil)
	mrec := modeltape.NewRecorder(nil)
	res := run.Execute(context.Background(), p, run.Options{Host: h, Models: keyedModels{}, NoCache: true,
		OnCall: func(_ *config.Suite, _ *config.Server, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
			crec.Observe(sess, method, params, out, err)
		},
		ModelRecorder: func(_ *config.Suite, server string) *modeltape.Recorder {
			if server == "demo" {
				return mrec
			}
			return nil
		},
	})
	if res.Tests[0].Status != report.StatusPassed || res.Tests[0].Agent == nil || res.Tests[0].Agent.Replayed {
		t.Fatalf("live run: %s %+v", res.Tests[0].Status, res.Tests[0].Error)
	}
	c := crec.Cassette()
	raw, err := mrec.Section().Encode()
	if err != nil {
		t.Fatal(err)
	}
	c.Models = raw
	path := filepath.Join(t.TempDir(), "demo.json")
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}

	replay := func(prompt, name string) report.Test {
		t.Helper()
		suite := strings.NewReplacer("SERVER", `{cassette: "`+path+`"}`, "PROMPT", prompt, "name: echoes", "name: "+name).Replace(tapeSuite)
		p, h := setup(t, suite)
		// No Models: a replayed run reaches no model and needs no key.
		return run.Execute(context.Background(), p, run.Options{Host: h}).Tests[0]
	}
	if tr := replay("ping", "echoes"); tr.Status != report.StatusPassed || tr.Agent == nil || !tr.Agent.Replayed || tr.Agent.FinalResponse != "said ping" {
		t.Fatalf("replay: %s %+v %+v", tr.Status, tr.Error, tr.Agent)
	}
	tr := replay("pong", "echoes")
	if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "replay_mismatch" ||
		!strings.Contains(tr.Error.Message, `-      "content": "ping"`) || !strings.Contains(tr.Error.Message, `+      "content": "pong"`) {
		t.Fatalf("changed prompt: %s %+v", tr.Status, tr.Error)
	}
	if tr := replay("ping", "renamed"); tr.Status != report.StatusErrored || !strings.Contains(tr.Error.Message, "mcptest record") {
		t.Fatalf("unrecorded run: %s %+v", tr.Status, tr.Error)
	}
}

// The per-suite cap spans the rows of a models matrix: once one call has
// spent 0.6 of the suite's 1 cent, no row may send a call that could cost
// 0.6 more, whichever row runs first.
func TestAgentSuiteBudgetSpansTheMatrix(t *testing.T) {
	suite := strings.Replace(strings.Replace(budgetSuite, "per_test_usd_cents", "per_suite_usd_cents", 1), "model: m1", "models: [m1, m2]", 1)
	p, h := setup(t, suite)
	models := &costlyModels{}
	pricer := budget.PricerFunc(func(config.ModelRef) (sdk.ModelPrice, bool) {
		return sdk.ModelPrice{OutputPerMTok: 5.86}, true
	})
	res := run.Execute(context.Background(), p, run.Options{Host: h, Models: models, Pricer: pricer})
	if n := models.calls.Load(); n != 1 {
		t.Errorf("%d calls reached the models, want 1", n)
	}
	for _, tr := range res.Tests {
		if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "budget" || !strings.Contains(tr.Error.Message, "per_suite_usd_cents 1 cents") {
			t.Errorf("%s = %s %+v", tr.Name, tr.Status, tr.Error)
		}
	}
}
