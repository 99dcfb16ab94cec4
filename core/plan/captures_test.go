package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

func TestCapturesOrderConsumersAfterProducers(t *testing.T) {
	s := load(t, `servers: {s: {command: [./s]}}
tools:
  - name: make
    server: s
    tool: create
    capture: {id: result.structuredContent.id, body: "result.content[0].text"}
  - name: use
    server: s
    tool: get
    args: {id: "${capture:id}", note: "about ${capture:body} and ${capture:id}"}
  - {name: other, server: s, tool: get}
resources:
  - {name: read, server: s, uri: "x://item/${capture:id}"}
prompts:
  - {name: ask, server: s, prompt: p, args: {q: "${capture:body}"}}
compositions:
  - name: flow
    nodes:
      - {id: a, tool: get, args: {id: "${capture:id}"}}
`)
	p, err := plan.Build([]*config.Suite{s}, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]*plan.Test{}
	for _, tt := range p.Tests {
		by[tt.Name] = tt
	}
	if len(by["make"].Captures) != 2 || by["make"].Captures[0].Spec.Name != "id" {
		t.Errorf("captures = %+v", by["make"].Captures)
	}
	if !slices.Equal(by["use"].Consumes, []string{"id", "body"}) && !slices.Equal(by["use"].Consumes, []string{"body", "id"}) {
		t.Errorf("use consumes %v", by["use"].Consumes)
	}
	for _, name := range []string{"use", "read", "ask", "flow"} {
		if got := by[name].After; len(got) != 1 || got[0] != by["make"] {
			t.Errorf("%s: after = %v", name, got)
		}
	}
	if len(by["other"].After) != 0 || len(by["other"].Consumes) != 0 {
		t.Errorf("other depends on %v", by["other"].After)
	}
}

func TestCaptureErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown name", `servers: {s: {command: [./s]}}
tools:
  - {name: a, server: s, tool: t, capture: {item_id: result.id}}
  - {name: b, server: s, tool: t, args: {x: "${capture:itemid}"}}
`, `${capture:itemid} names no capture (did you mean "item_id"?)`},
		{"producer runs later", `servers: {s: {command: [./s]}}
tools:
  - {name: b, server: s, tool: t, args: {x: "${capture:id}"}}
  - {name: a, server: s, tool: t, capture: {id: result.id}}
`, `${capture:id} is captured by test "a", which does not run before this one`},
		{"self", `servers: {s: {command: [./s]}}
tools:
  - {name: a, server: s, tool: t, args: {x: "${capture:id}"}, capture: {id: result.id}}
`, `does not run before this one`},
		{"duplicate", `servers: {s: {command: [./s]}}
tools:
  - {name: a, server: s, tool: t, capture: {id: result.id}}
  - {name: b, server: s, tool: t, capture: {id: result.other}}
`, `capture "id" is already taken by test "a"`},
		{"bad target", `servers: {s: {command: [./s]}}
tools:
  - {name: a, server: s, tool: t, capture: {id: "result..id"}}
`, `invalid capture target "result..id"`},
	}
	for _, c := range cases {
		s := load(t, c.src)
		_, err := plan.Build([]*config.Suite{s}, registry(t))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.name, err, c.want)
		}
	}
}

func TestCompositionPlan(t *testing.T) {
	s := load(t, `servers: {s: {command: [./s]}, o: {command: [./o]}}
compositions:
  - name: diamond
    server: s
    nodes:
      - {id: join, tool: t, needs: [left, right], args: {a: "${left.x}", b: "${right.y}"}}
      - {id: left, tool: t, needs: [root]}
      - {id: right, tool: t, server: o, needs: [root]}
      - {id: root, tool: t}
      - {id: lone, tool: t}
    expect:
      - {target: composition.order, matcher: {exact: [root, left, right, join, lone]}}
`)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tests) != 1 || p.Tests[0].Kind != plan.KindComposition || !strings.Contains(p.Tests[0].ID, "::compositions::diamond") {
		t.Fatalf("tests = %+v", p.Tests)
	}
	c := p.Tests[0].Composition
	var order []string
	for _, n := range c.Order {
		order = append(order, n.ID)
	}
	// Declaration order breaks ties: lone comes after join because join is
	// declared first and becomes ready once its needs are met.
	if got := strings.Join(order, ","); got != "root,left,right,join,lone" {
		t.Errorf("order = %s", got)
	}
	if c.Output != "lone" || c.Servers["right"].Name != "o" || c.Servers["left"].Name != "s" {
		t.Errorf("output %q, servers %v", c.Output, c.Servers)
	}
	if len(p.Tests[0].Assertions) != 1 || p.Tests[0].Server.Name != "s" {
		t.Errorf("assertions %d, server %v", len(p.Tests[0].Assertions), p.Tests[0].Server)
	}
}

func TestInjectErrorPlan(t *testing.T) {
	src := `servers: {s: {command: [./s]}}
fixtures:
  errors:
    - {name: limited, code: -32000, message: slow down, tool: create}
    - {name: expired, code: -32001, message: token expired, applies_to: any}
tools:
  - {name: ok scoped, server: s, tool: create, inject_error: limited}
  - {name: ok any, server: s, tool: other, inject_error: expired}
`
	if _, err := plan.BuildWith([]*config.Suite{load(t, src)}, registry(t), plan.Options{Run: true}); err != nil {
		t.Fatalf("inject_error is planned: %v", err)
	}
	_, err := plan.Build([]*config.Suite{load(t, src+"  - {name: wrong tool, server: s, tool: other, inject_error: limited}\n")}, registry(t))
	if err == nil || !strings.Contains(err.Error(), `fixture "limited" is scoped to tool "create"; this test calls "other"`) {
		t.Errorf("error = %v", err)
	}
}
