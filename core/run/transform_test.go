package run_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

func TestTransforms(t *testing.T) {
	pl, h, _ := hookSuite(t, `
servers:
  demo:
    command: ["DEMO"]
defaultTest:
  transform:
    response: "sed s/hello/goodbye/"
tools:
  - name: request transform rewrites the arguments
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      request: "sed s/hello/HOWDY/"
    expect:
      - {target: "result.content[0].text", matcher: {eq: "HOWDY"}}
  - name: request transform may call another tool
    server: demo
    tool: echo
    args: {message: "x"}
    transform:
      request: "sh -c 'cat >/dev/null; echo \"{\\\"name\\\": \\\"add\\\", \\\"arguments\\\": {\\\"a\\\": 1, \\\"b\\\": 2}}\"'"
    expect:
      - {target: "result.structuredContent.sum", matcher: {eq: 3}}
  - name: response transform from defaultTest
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "goodbye"}}
  - name: assertion transform
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: "result.content[0].text"
        transform: "tr a-z A-Z"
        matcher: {eq: "GOODBYE"}
      - target: "result.content[0]"
        transform: "sh -c 'cat >/dev/null; echo 42'"
        matcher: {eq: 42}
      - {target: "result.content[0].text", matcher: {eq: "goodbye"}}
  - name: a JSON-RPC error passes the response transform untouched
    server: demo
    tool: no_such_tool
    transform:
      response: "sh -c 'exit 1'"
    expect:
      - {target: "error.code", matcher: {eq: -32602}}
  - name: transforms see the test in their environment
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      response: "sh -c 'cat >/dev/null; echo \"{\\\"result\\\": \\\"$$MCPTEST_TRANSFORM_PHASE $$MCPTEST_TEST_NAME\\\"}\"'"
    expect:
      - {target: "result", matcher: {eq: "response transforms see the test in their environment"}}
`, nil)
	res := execute(t, pl, h, run.Options{})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed {
			t.Errorf("%s: %s %+v %+v %s", tr.Name, tr.Status, tr.Error, tr.Assertions, tr.Response)
		}
	}
}

func TestTransformFailures(t *testing.T) {
	pl, h, _ := hookSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: request transform exits non-zero
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      request: "sh -c 'echo cannot parse the request >&2; exit 1'"
  - name: request transform prints only the arguments
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      request: "sh -c 'cat >/dev/null; echo {\\\"message\\\": 1}'"
  - name: response transform prints text
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      response: "sh -c 'echo not json'"
  - name: response transform drops result
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      response: "sh -c 'cat >/dev/null; echo {\\\"content\\\": []}'"
  - name: response transform prints nothing
    server: demo
    tool: echo
    args: {message: "hello"}
    transform:
      response: "sh -c 'cat >/dev/null'"
  - name: transform times out
    server: demo
    tool: echo
    args: {message: "hello"}
    timeout_ms: 300
    transform:
      response: "sleep 20"
  - name: assertion transform fails
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: "result.content[0].text"
        transform: "sh -c 'echo no jq here >&2; exit 2'"
        matcher: {eq: "HELLO"}
      - {target: "result.content[0].text", matcher: {eq: "hello"}}
`, nil)
	start := time.Now()
	res := execute(t, pl, h, run.Options{})
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("run took %s", d)
	}
	want := map[string][]string{
		"request transform exits non-zero":            {`request transform "sh -c 'echo cannot parse the request >&2; exit 1'" failed`, "exited with status 1", "stderr:\ncannot parse the request"},
		"request transform prints only the arguments": {`unknown key "message"`},
		"response transform prints text":              {"response transform", "not one JSON value"},
		"response transform drops result":             {`prints {"result": ...}; got the keys content`},
		"response transform prints nothing":           {"printed nothing"},
		"transform times out":                         {"timed out after 300ms"},
	}
	for _, tr := range res.Tests {
		if tr.Name == "assertion transform fails" {
			continue
		}
		if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "transform" {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
			continue
		}
		for _, w := range want[tr.Name] {
			if !strings.Contains(tr.Error.Message, w) {
				t.Errorf("%s: message %q lacks %q", tr.Name, tr.Error.Message, w)
			}
		}
		if strings.HasPrefix(tr.Name, "request") && len(tr.Frames) != 0 {
			t.Errorf("%s: the request was sent anyway", tr.Name)
		}
		if strings.HasPrefix(tr.Name, "response") && len(tr.Response) == 0 {
			t.Errorf("%s: the response is not shown", tr.Name)
		}
	}
	a := hookTestsByName(res)["assertion transform fails"]
	if a.Status != report.StatusFailed || len(a.Assertions) != 2 || a.Assertions[0].Status != report.StatusFailed || a.Assertions[1].Status != report.StatusPassed {
		t.Fatalf("assertion transform: %s %+v", a.Status, a.Assertions)
	}
	var f map[string]any
	if err := json.Unmarshal(a.Assertions[0].Failure, &f); err != nil {
		t.Fatal(err)
	}
	if note, _ := f["note"].(string); !strings.Contains(note, "exited with status 2") || !strings.Contains(note, "no jq here") || f["actual"] != "hello" {
		t.Errorf("failure = %v", f)
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d", res.ExitCode)
	}
}
