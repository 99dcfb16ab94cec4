package run_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

// TestUnknownToolDiagnosis: a tool test that fails or errors and called a
// tool the server does not list says so, with the name it most likely
// meant; the call is still made, so a test expecting the server's own
// unknown-tool error passes, and a listed tool gets no such note.
func TestUnknownToolDiagnosis(t *testing.T) {
	pl, h := setup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: typo
    server: demo
    tool: ecoh
    args: {message: hi}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "\"hi\""}}
  - name: expects the server's error
    server: demo
    tool: ecoh
    args: {message: hi}
    expect:
      - {target: "error.code", matcher: {eq: -32602}}
  - name: listed tool, wrong value
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "\"bye\""}}
  - name: no expectations
    server: demo
    tool: zzzzzzzzzzzzzz
`)
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	got := map[string]report.Test{}
	for _, tr := range res.Tests {
		got[tr.Name] = tr
	}
	if tr := got["typo"]; tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "unknown_tool" ||
		tr.Error.Message != `tool "ecoh" is not in the server's tools/list (did you mean "echo"?)` {
		t.Errorf("typo: %s %+v", tr.Status, tr.Error)
	}
	if tr := got["expects the server's error"]; tr.Status != report.StatusPassed || tr.Error != nil {
		t.Errorf("negative test: %s %+v %+v", tr.Status, tr.Error, tr.Assertions)
	}
	if tr := got["listed tool, wrong value"]; tr.Status != report.StatusFailed || tr.Error != nil {
		t.Errorf("listed tool: %s %+v", tr.Status, tr.Error)
	}
	// The server's own error stays first; the note follows it.
	tr := got["no expectations"]
	if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "rpc_error" ||
		!strings.HasPrefix(tr.Error.Message, "JSON-RPC error -32602") ||
		!strings.Contains(tr.Error.Message, "\n"+`tool "zzzzzzzzzzzzzz" is not in the server's tools/list (it lists `) {
		t.Errorf("no expectations: %s %+v", tr.Status, tr.Error)
	}
}

// TestUnknownToolDiagnosisNeedsTheList: a server that cannot list its
// tools (here every tools/list is turned into an unknown method on its way
// in) gets no note, only the test's own failure.
func TestUnknownToolDiagnosisNeedsTheList(t *testing.T) {
	pl, h := setup(t, `
servers:
  demo:
    command: ["sh", "-c", "sed -u 's#tools/list#tools/lisx#' | 'DEMO'"]
tools:
  - name: typo
    server: demo
    tool: ecoh
    args: {message: hi}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "hi"}}
`)
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	if len(res.Tests) != 1 {
		t.Fatalf("%d tests", len(res.Tests))
	}
	if tr := res.Tests[0]; tr.Status != report.StatusFailed || tr.Error != nil {
		t.Errorf("typo: %s %+v", tr.Status, tr.Error)
	}
}
