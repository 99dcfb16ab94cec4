package run_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// echoModel calls the echo tool once with the prompt, then repeats what
// the tool said; model "loop" calls it forever.
type echoModel struct{ id string }

func (m echoModel) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	u := sdk.Usage{InputTokens: 3, OutputTokens: 2}
	if last.Role == "user" || m.id == "loop" {
		args, _ := json.Marshal(map[string]string{"message": req.Messages[0].Content})
		return sdk.ChatResponse{Message: sdk.Message{ToolCalls: []sdk.ToolCall{{ID: "c", Name: "echo", Arguments: args}}}, Usage: u}, nil
	}
	return sdk.ChatResponse{Message: sdk.Message{Content: "said " + last.Content}, Usage: u}, nil
}

// keyedModels serves echoModel for every model id but "keyless", whose
// key is missing.
type keyedModels struct{}

func (keyedModels) Model(_ context.Context, _ *config.Suite, ref config.ModelRef) (agent.Model, error) {
	if ref.ID == "keyless" {
		return nil, &models.NoKeyError{Model: ref.ID, Family: "keyless", Vars: []string{"KEYLESS_API_KEY"}}
	}
	return echoModel{id: ref.ID}, nil
}

const agentSuite = `
servers:
  demo: {command: ["DEMO"]}
agents:
  - name: echoes
    models: [m1, keyless]
    servers: [demo]
    prompt: ping
    expect:
      - {target: "tool_calls[0].name", matcher: {eq: "echo"}}
      - {target: "tool_results[0].isError", matcher: {eq: false}}
      - {target: final_response, matcher: {eq: "said ping"}}
  - name: loops
    model: loop
    servers: [demo]
    prompt: ping
    max_turns: 2
`

func TestAgentTestsRunDeferAndCap(t *testing.T) {
	p, h := setup(t, agentSuite)
	for _, require := range []bool{false, true} {
		res := run.Execute(context.Background(), p, run.Options{Host: h, Models: keyedModels{}, RequireModels: require})
		byName := map[string]report.Test{}
		for _, tr := range res.Tests {
			byName[tr.Name] = tr
		}
		if got := byName["echoes [m1]"]; got.Status != report.StatusPassed {
			t.Fatalf("echoes [m1] = %s %+v %+v", got.Status, got.Error, got.Assertions)
		}
		loops := byName["loops [loop]"]
		if loops.Status != report.StatusFailed || loops.Error == nil || loops.Error.Kind != agent.StopTurnBudget ||
			!strings.Contains(loops.Error.Message, "max_turns 2") {
			t.Fatalf("loops = %s %+v", loops.Status, loops.Error)
		}
		// A failed agent test keeps its trace once, in agent (which the
		// reporters render), not a second time as the response.
		if loops.Agent == nil || len(loops.Agent.ToolCalls) == 0 || len(loops.Response) != 0 {
			t.Fatalf("loops: agent %+v, response %d bytes; want the trace in agent only", loops.Agent, len(loops.Response))
		}
		keyless := byName["echoes [keyless]"]
		if !require {
			if keyless.Status != report.StatusDeferred || !strings.Contains(keyless.Error.Message, "KEYLESS_API_KEY") {
				t.Fatalf("keyless = %s %+v", keyless.Status, keyless.Error)
			}
			if res.Summary.Deferred != 1 || res.Summary.Passed != 1 || res.Summary.Failed != 1 || score.ExitCode(res) != score.ExitFailed {
				t.Fatalf("summary %+v exit %d", res.Summary, score.ExitCode(res))
			}
			continue
		}
		if keyless.Status != report.StatusErrored || !strings.Contains(keyless.Error.Message, "--require-models") || score.ExitCode(res) != score.ExitError {
			t.Fatalf("--require-models: keyless = %s %+v, exit %d", keyless.Status, keyless.Error, score.ExitCode(res))
		}
	}
}
