package run_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

// TestCapturingTestRunsAlone: tests that log without a level run
// concurrently around one that captures at level debug; the capture holds
// exactly that test's eight messages, because nothing else ran on the
// session meanwhile (over stdio, notifications carry no request id).
func TestCapturingTestRunsAlone(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\ntools:\n")
	for i := range 12 {
		fmt.Fprintf(&b, "  - {name: noise %d, server: demo, tool: log, args: {message: noise}}\n", i)
		if i == 6 {
			b.WriteString(`  - name: captured
    server: demo
    tool: log
    args: {message: mine}
    log_level: debug
    expect:
      - {target: "logs.length", matcher: {eq: 8}}
      - {target: "logs[7].data", matcher: {eq: "mine at emergency"}}
      - {target: "notifications.length", matcher: {eq: 8}}
      - {target: "server_requests", matcher: {eq: []}}
`)
		}
	}
	pl, h := setup(t, b.String())
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 16})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed {
			t.Errorf("%s: %s %+v %+v\n%s", tr.Name, tr.Status, tr.Error, tr.Assertions, tr.Response)
		}
	}
	if res.Summary.Passed != 13 {
		t.Fatalf("summary %+v", res.Summary)
	}
}

// TestEnvelopeUnchangedWithoutCapture: a test that does not capture keeps
// the envelope it always had (with the isError the demo server leaves out
// seen as false); one whose target reads a capture key
// captures without any option.
func TestEnvelopeUnchangedWithoutCapture(t *testing.T) {
	pl, h := setup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: whole envelope
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - {target: "", matcher: {eq: {result: {content: [{type: text, text: hi}], isError: false}}}}
  - name: opted in by its target
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - {target: "notifications", matcher: {eq: []}}
      - {target: "logs", matcher: {eq: []}}
`)
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Assertions)
		}
	}
}
