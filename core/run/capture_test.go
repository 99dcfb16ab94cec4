package run_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

const captureSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: sum
    server: demo
    tool: add
    args: {a: 1, b: 2}
    capture:
      total: result.structuredContent.sum
      summary: result.structuredContent
  - name: slow producer
    server: demo
    tool: slow
    args: {ms: 300}
    capture: {word: "result.content[0].text"}
  - name: number injected as a number
    server: demo
    tool: add
    args: {a: "${capture:total}", b: 10}
    expect:
      - {target: result.structuredContent.sum, matcher: {eq: 13}}
  - name: waits for its producer
    server: demo
    tool: echo
    args: {message: "${capture:word}"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "done"}}
  - name: mixed text takes the text form
    server: demo
    tool: echo
    args: {message: "sum=${capture:total} all=${capture:summary}"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "sum=3 all={\"sum\":3}"}}
  - name: object injected as an object
    server: demo
    tool: echo
    args: {message: "${capture:summary}"}
resources:
  - name: uri takes the text form
    server: demo
    uri: "demo://items/${capture:word}"
    expect:
      - {target: "result.contents[0].text", matcher: {eq: "{\"id\":\"done\",\"name\":\"item done\"}"}}
`

func TestCapturesFlowIntoLaterTests(t *testing.T) {
	pl, h, _ := flowSetup(t, captureSuite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 16})
	tests := flowResults(res)
	for _, name := range []string{"sum", "slow producer", "number injected as a number", "waits for its producer", "mixed text takes the text form"} {
		if tr := tests[name]; tr.Status != report.StatusPassed {
			t.Errorf("%s: %s\n%s", name, tr.Status, flowExplain(tr))
		}
	}
	// echo refuses an object, so the test fails and keeps its frames: the
	// request carried the captured object itself, not its text.
	obj := tests["object injected as an object"]
	if obj.Status != report.StatusFailed || len(obj.Frames) == 0 ||
		!strings.Contains(string(obj.Frames[0].Data), `"arguments":{"message":{"sum":3}}`) {
		t.Errorf("object injection:\n%s", flowExplain(obj))
	}
	if tr := tests["uri takes the text form"]; tr.Status != report.StatusPassed {
		t.Errorf("uri:\n%s", flowExplain(tr))
	}
}

func TestCaptureFailuresAreExplained(t *testing.T) {
	pl, h, _ := flowSetup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: producer misses its target
    server: demo
    tool: echo
    args: {message: hi}
    capture: {gone: result.structuredContent.id}
  - name: producer left out
    server: demo
    tool: echo
    args: {message: hi}
    capture: {left: "result.content[0].text"}
  - name: uses a capture that was not set
    server: demo
    tool: echo
    args: {message: "${capture:gone}"}
  - name: uses a capture of a test not in the run
    server: demo
    tool: echo
    args: {message: "${capture:left}"}
`, plan.Selection{Exclude: []string{"producer left out"}})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	tests := flowResults(res)
	miss := tests["producer misses its target"]
	if miss.Status != report.StatusFailed || miss.Error == nil || miss.Error.Kind != "capture" ||
		!strings.Contains(miss.Error.Message, "gone (result.structuredContent.id)") {
		t.Errorf("producer:\n%s", flowExplain(miss))
	}
	unset := tests["uses a capture that was not set"]
	if unset.Status != report.StatusSkipped || unset.Error == nil || unset.Error.Kind != "capture_unset" ||
		!strings.Contains(unset.Error.Message, `in test "producer misses its target", result.structuredContent.id did not resolve`) {
		t.Errorf("consumer of an unset capture:\n%s", flowExplain(unset))
	}
	missing := tests["uses a capture of a test not in the run"]
	if missing.Status != report.StatusErrored || missing.Error == nil || missing.Error.Kind != "capture_missing" ||
		!strings.Contains(missing.Error.Message, "${capture:left}") || !strings.Contains(missing.Error.Message, "not part of this run") {
		t.Errorf("consumer of a capture not in the run:\n%s", flowExplain(missing))
	}
	if res.ExitCode != 2 {
		t.Errorf("exit code %d, want 2 (a capture missing from the run is a setup error)", res.ExitCode)
	}
}

func TestCaptureFromAnErroredProducer(t *testing.T) {
	pl, h, _ := flowSetup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: crashes
    server: demo
    tool: crash
    capture: {x: result}
  - name: after the crash
    server: demo
    tool: echo
    args: {message: "${capture:x}"}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	after := flowResults(res)["after the crash"]
	if after.Status != report.StatusSkipped || after.Error == nil || !strings.Contains(after.Error.Message, `test "crashes" ended errored (server_exited`) {
		t.Errorf("consumer:\n%s", flowExplain(after))
	}
}

// TestCaptureReadsIsErrorAsFalse: a capture reads the result as targets
// do, with isError false when the server left it out.
func TestCaptureReadsIsErrorAsFalse(t *testing.T) {
	pl, h := setup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: produce
    server: demo
    tool: echo
    args: {message: hi}
    capture: {failed: result.isError}
  - name: consume
    server: demo
    tool: echo
    args: {message: "failed=${capture:failed}"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "failed=false"}}
`)
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed {
			t.Errorf("%s: %s %+v %+v", tr.Name, tr.Status, tr.Error, tr.Assertions)
		}
	}
}
