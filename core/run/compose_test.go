package run_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

const compositionSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: seed
    server: demo
    tool: echo
    args: {message: Ada}
    capture: {who: "result.content[0].text"}
compositions:
  - name: every target
    server: demo
    nodes:
      - {id: blob, tool: json_blob}
      - id: plus
        needs: [blob]
        tool: add
        args: {a: "${blob.id}", b: 1}
      - id: words
        needs: [blob, plus]
        tool: echo
        args: {message: "id=${blob.id} sum=${plus.sum} tags=${blob.tags} ok=${blob.nested.ok}"}
      - id: hello
        tool: greet
        args: {name: "${capture:who}"}
      - id: whole
        needs: [hello]
        tool: echo
        args: {message: "${hello.output}"}
      - {id: broken, tool: fail}
      - {id: after_broken, needs: [broken], tool: echo, args: {message: never}}
      - {id: further, needs: [after_broken], tool: echo, args: {message: never}}
    output: plus
    expect:
      - {target: composition.order, matcher: {eq: ["blob","plus","words","hello","whole","broken","after_broken","further"]}}
      - {target: composition.ran, matcher: {eq: ["blob","plus","words","hello","whole","broken"]}}
      - {target: nodes.blob.status, matcher: {eq: "ok"}}
      - {target: nodes.blob.output.nested.ok, matcher: {eq: true}}
      - {target: nodes.plus.output, matcher: {eq: {"sum":43}}}
      - {target: nodes.words.output, matcher: {eq: "id=42 sum=43 tags=[\"a\",\"b\"] ok=true"}}
      - {target: nodes.whole.output, matcher: {eq: "Hello, Ada!"}}
      - {target: nodes.broken.status, matcher: {eq: "error"}}
      - {target: nodes.after_broken.status, matcher: {eq: "skipped"}}
      - {target: nodes.further.status, matcher: {eq: "skipped"}}
      - {target: nodes.further.output, matcher: {eq: null}}
      - {target: nodes.plus.duration_ms, matcher: {positive: true}}
      - {target: output.sum, matcher: {eq: 43}}
  - name: default output is the last node
    server: demo
    nodes:
      - {id: one, tool: echo, args: {message: first}}
      - {id: two, needs: [one], tool: echo, args: {message: "${one.output} then second"}}
    expect:
      - {target: output, matcher: {eq: "first then second"}}
      - {target: composition.output, matcher: {eq: "two"}}
  - name: a failed node fails a composition without expectations
    server: demo
    nodes:
      - {id: bad, tool: fail}
      - {id: next, needs: [bad], tool: echo, args: {message: x}}
  - name: a bad reference errors its node
    server: demo
    nodes:
      - {id: blob, tool: json_blob}
      - {id: use, needs: [blob], tool: echo, args: {message: "${blob.missing.key}"}}
    expect:
      - {target: nodes.use.status, matcher: {eq: "error"}}
`

func TestCompositions(t *testing.T) {
	pl, h, _ := flowSetup(t, compositionSuite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 8})
	tests := flowResults(res)

	every := tests["every target"]
	if every.Status != report.StatusPassed || every.Block != "compositions" {
		t.Fatalf("every target:\n%s", flowExplain(every))
	}
	var nodes []string
	for _, n := range every.Nodes {
		nodes = append(nodes, n.ID+":"+n.Status)
	}
	if got := strings.Join(nodes, " "); got != "blob:ok plus:ok words:ok hello:ok whole:ok broken:error after_broken:skipped further:skipped" {
		t.Errorf("report nodes = %s", got)
	}
	if n := every.Nodes[6]; !strings.Contains(n.Error, `needs "broken"`) || n.Tool != "echo" || n.Server != "demo" {
		t.Errorf("skipped node = %+v", n)
	}
	if n := every.Nodes[5]; !strings.Contains(n.Error, "isError") || n.DurationMS <= 0 {
		t.Errorf("errored node = %+v", n)
	}
	if tr := tests["default output is the last node"]; tr.Status != report.StatusPassed {
		t.Errorf("default output:\n%s", flowExplain(tr))
	}
	bad := tests["a failed node fails a composition without expectations"]
	if bad.Status != report.StatusFailed || bad.Error == nil || !strings.Contains(bad.Error.Message, `node "bad": error`) ||
		!strings.Contains(string(bad.Response), `"composition"`) {
		t.Errorf("failed composition:\n%s", flowExplain(bad))
	}
	ref := tests["a bad reference errors its node"]
	if ref.Status != report.StatusPassed || !strings.Contains(ref.Nodes[1].Error, "${blob.missing.key}") {
		t.Errorf("bad reference:\n%s", flowExplain(ref))
	}
}
