package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

func TestAgentsPlanOneTestPerModel(t *testing.T) {
	s := load(t, `servers:
  a: {command: [./a]}
  b: {command: [./b]}
providers:
  local: {type: openai, base_url: "http://127.0.0.1:1/v1"}
agents:
  - name: routes
    models: [stub, {provider: local, id: my-model}]
    servers: [b, a]
    prompt: hi
    tags: [agent]
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: echo}}
  - {name: single, model: claude-sonnet-4-5, servers: [a], prompt: hi}
`)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, pt := range p.Tests {
		if pt.Kind != plan.KindAgent || pt.Block() != "agents" {
			t.Fatalf("test %q kind %s block %s", pt.Name, pt.Kind, pt.Block())
		}
		names = append(names, pt.Name)
	}
	want := []string{"routes [stub]", "routes [local: my-model]", "single [claude-sonnet-4-5]"}
	if !slices.Equal(names, want) || p.Total != 3 || p.Selected != 3 {
		t.Fatalf("tests %q (total %d, selected %d), want %q", names, p.Total, p.Selected, want)
	}
	first := p.Tests[0]
	if first.Server.Name != "b" || len(first.Agent.Servers) != 2 || len(first.Assertions) != 1 || first.Agent.Model.ID != "stub" {
		t.Fatalf("first = server %s, %d servers, %d assertions, model %+v", first.Server.Name, len(first.Agent.Servers), len(first.Assertions), first.Agent.Model)
	}
	if !strings.HasSuffix(first.ID, "::agents::routes [stub]") {
		t.Errorf("id = %s", first.ID)
	}
	// Selection reads the row name, model included.
	p, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true, Selection: plan.Selection{Include: []string{"*local*"}}})
	if err != nil || len(p.Tests) != 1 || p.Tests[0].Agent.Model.Provider != "local" {
		t.Fatalf("selection: %v, %d tests", err, len(p.Tests))
	}
}

func TestAgentUnknownMatcherIsAPlanError(t *testing.T) {
	s := load(t, `servers: {a: {command: [./a]}}
agents:
  - {name: x, model: stub, servers: [a], prompt: hi, expect: [{target: final_response, matcher: {containz: a}}]}
`)
	if _, err := plan.Build([]*config.Suite{s}, registry(t)); err == nil || !strings.Contains(err.Error(), `unknown matcher "containz"`) {
		t.Fatalf("err = %v", err)
	}
}

// Judged metrics run with the agent test (core/run judges them): the
// plan no longer refuses them.
func TestAgentEvalMetricsArePlanned(t *testing.T) {
	s := load(t, `servers: {a: {command: [./a]}}
agents:
  - {name: judged, model: stub, servers: [a], prompt: hi, eval: {mcp_use: {}}}
`)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err != nil || len(p.Tests) != 1 || p.Tests[0].Agent.Spec.Eval == nil {
		t.Fatalf("plan: %v %+v", err, p)
	}
}
