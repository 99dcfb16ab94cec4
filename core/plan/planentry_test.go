package plan_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/tokens"
)

const scored = `servers:
  s: {command: [./s]}
tools:
  - name: scored
    server: s
    tool: t
    threshold: 0.5
    expect:
      - {target: result.a, matcher: {allOf: [{anyOf: [{exact: 1}, {regex: "x"}]}, {not: {contains: z}}]}, name: tree}
      - assert-set:
          name: kw
          threshold: 0.6
          assertions:
            - {target: result.b, matcher: {contains: x}}
            - {target: result.c, matcher: {not: {exact: 2}}, weight: 2}
      - {target: result.d, matcher: {exact: 4}}
`

// TestPlanEntries checks that compositions and assert-sets are planned as
// trees whose leaves come out in evaluation order.
func TestPlanEntries(t *testing.T) {
	p, err := plan.BuildWith([]*config.Suite{load(t, scored)}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	as := p.Tests[0].Assertions
	if len(as) != 3 {
		t.Fatalf("entries = %d", len(as))
	}
	if as[0].Matcher == nil || as[0].Plugin != nil || len(as[0].Matcher.Children) != 2 {
		t.Errorf("composition = %+v", as[0])
	}
	if len(as[1].Members) != 2 || as[1].Members[1].Matcher == nil || as[1].Members[0].Plugin == nil {
		t.Errorf("assert-set = %+v", as[1])
	}
	if as[2].Plugin == nil || as[2].Matcher != nil || as[2].Members != nil {
		t.Errorf("plain = %+v", as[2])
	}
	var keys []string
	for _, a := range as {
		a.Leaves(func(l plan.Leaf) {
			keys = append(keys, l.Assertion.Spec.Target+":"+l.Matcher.Key)
			if l.Plugin == nil {
				t.Errorf("leaf %s has no plugin", l.Matcher.Key)
			}
		})
	}
	want := "result.a:exact result.a:regex result.a:contains result.b:contains result.c:exact result.d:exact"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("leaves = %s\nwant     %s", got, want)
	}
	if len(p.Matchers) != 1 {
		t.Errorf("plugins = %d", len(p.Matchers))
	}
}

func TestStepChecks(t *testing.T) {
	const suite = `servers:
  s: {command: [./s]}
  web: {url: "http://127.0.0.1:1/mcp"}
tools:
  - name: stdio headers
    server: s
    tool: t
    expect:
      assertions: []
      response_headers: {content-type: application/json}
      response_headers_absent: [set-cookie]
  - name: web headers
    server: web
    tool: t
    expect: {assertions: [], response_headers: {content-type: {contains: json}}, max_duration_ms: 10}
  - name: bad tokenizer
    server: s
    tool: t
    expect: {assertions: [], max_response_tokens: {budget: 5, tokenizer: gpt-neo, mode: words}}
  - name: approx
    server: s
    tool: t
    expect: {assertions: [], max_response_tokens: 5}
`
	_, err := plan.Build([]*config.Suite{load(t, suite)}, registry(t))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		`/tools/0/expect/response_headers: response_headers needs a URL server; server "s" is a stdio server`,
		`/tools/0/expect/response_headers_absent: response_headers_absent needs a URL server`,
		`/tools/2/expect/max_response_tokens/tokenizer: unknown tokenizer "gpt-neo"`,
		`/tools/2/expect/max_response_tokens/mode: unknown mode "words"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "/tools/1/") || strings.Contains(msg, "/tools/3/") {
		t.Errorf("valid step checks refused:\n%s", msg)
	}
}

// TestNamedTokenizerWithoutLibrary checks that a named encoding this build
// cannot serve is a located gap, never a silent approximation.
func TestNamedTokenizerWithoutLibrary(t *testing.T) {
	if !errors.Is(tokens.Check("o200k_base"), tokens.ErrNotBuilt) {
		t.Skip("this build serves o200k_base")
	}
	s := load(t, `servers: {s: {command: [./s]}}
tools:
  - {name: t, server: s, tool: t, expect: {assertions: [], max_response_tokens: {budget: 9, tokenizer: o200k_base}}}
`)
	_, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err == nil || !strings.Contains(err.Error(), "/tools/0/expect/max_response_tokens/tokenizer: not supported yet: tokenizer o200k_base") {
		t.Fatalf("error = %v", err)
	}
}

// TestShardKeepsPluginsOfNestedLeaves checks that a shard starts the
// plugins its compositions and assert-sets need, not only those of plain
// assertions.
func TestShardKeepsPluginsOfNestedLeaves(t *testing.T) {
	p, err := plan.BuildWith([]*config.Suite{load(t, `servers: {s: {command: [./s]}}
tools:
  - {name: t, server: s, tool: t, expect: [{target: r, matcher: {not: {exact: 1}}}]}
`)}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	p.Shard(plan.ShardOf(p.Tests[0].ID, 2), 2)
	if len(p.Tests) != 1 || len(p.Matchers) != 1 {
		t.Fatalf("tests %d, plugins %d", len(p.Tests), len(p.Matchers))
	}
}

// TestStepCheckErrorsOnce checks that a header check defaultTest gives
// every stdio test is reported once, at defaultTest.
func TestStepCheckErrorsOnce(t *testing.T) {
	_, err := plan.Build([]*config.Suite{load(t, `servers: {s: {command: [./s]}}
defaultTest:
  expect: {assertions: [], response_headers_absent: [set-cookie]}
tools:
  - {name: a, server: s, tool: t}
  - {name: b, server: s, tool: t}
`)}, registry(t))
	if err == nil || strings.Count(err.Error(), "needs a URL server") != 1 || !strings.Contains(err.Error(), "/defaultTest/expect/response_headers_absent") {
		t.Fatalf("error = %v", err)
	}
}
