package judge

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

func traceOf() *agent.Trace {
	return &agent.Trace{
		ToolCalls:     []agent.ToolCall{{ID: "1", Name: "get_weather", Server: "weather", Args: json.RawMessage(`{"city":"Paris"}`)}},
		ToolResults:   []agent.ToolResult{{Name: "get_weather", Server: "weather", Result: json.RawMessage(`{"content":[{"type":"text","text":"18C"}]}`)}},
		FinalResponse: "It is 18C in Paris.",
	}
}

func TestMetricSpecsAndBuiltins(t *testing.T) {
	ev := &config.AgentEval{Metrics: []*config.Metric{{Name: "mcp_use", Threshold: 0.6}, {Name: "plan_quality", Threshold: 0.5}},
		Rubric: &config.Rubric{Criteria: []*config.Criterion{crit("confirmed")}}}
	specs, err := MetricSpecs(nil, ev, "judge-model")
	if err != nil || len(specs) != 3 || specs[2].Name != MetricRubric || specs[2].Threshold != 0.7 {
		t.Fatalf("specs = %+v, %v", specs, err)
	}
	m := &scripted{answer: func(_ int, req sdk.ChatRequest) string {
		if strings.Contains(req.Messages[0].Content, `Criterion "mcp_use"`) {
			return verdict(0.55, "one redundant call")
		}
		return verdict(0.9, "fine")
	}}
	e := engine(t, m, Options{})
	c := Candidate{Prompt: "weather in Paris?", Trace: traceOf()}
	got, err := e.Metric(context.Background(), specs[0], c)
	if err != nil {
		t.Fatal(err)
	}
	if got.Form != "metric" || got.Metric != "mcp_use" || got.Score != 0.55 || got.Passed || got.Threshold != 0.6 {
		t.Fatalf("mcp_use = %+v", got)
	}
	got, _ = e.Metric(context.Background(), specs[2], c)
	if got.Form != "metric" || got.Metric != "rubric" || !got.Passed || len(got.Criteria) != 1 {
		t.Fatalf("rubric metric = %+v", got)
	}
}

func TestMultiTurnAveragesAndDefers(t *testing.T) {
	m := &scripted{answer: func(n int, _ sdk.ChatRequest) string { return verdict([]float64{0.9, 0.3}[n], "turn") }}
	e := engine(t, m, Options{})
	spec := MetricSpec{Name: MetricMultiTurnMCPUse, Threshold: 0.5}
	tr := traceOf()
	tr.Conversation.PerTurn = []agent.Turn{
		{User: "find a flight", ToolCalls: tr.ToolCalls, ToolResults: tr.ToolResults, FinalResponse: "found"},
		{User: "book a hotel", FinalResponse: "booked"},
	}
	got, err := e.Metric(context.Background(), spec, Candidate{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Score-0.6) > 1e-9 || !got.Passed || len(got.Criteria) != 2 || got.Calls != 2 || got.Criteria[1].Passed {
		t.Fatalf("multi-turn = %+v", got)
	}
	if !strings.Contains(m.reqs[1].Messages[0].Content, "book a hotel") || strings.Contains(m.reqs[1].Messages[0].Content, "get_weather") {
		t.Fatal("turn 2 was not graded on its own slice")
	}
	_, err = e.Metric(context.Background(), spec, Candidate{Trace: traceOf()})
	if !errors.Is(err, ErrDeferred) || !strings.Contains(err.Error(), "turns:") {
		t.Fatalf("single-prompt run: %v", err)
	}
}
