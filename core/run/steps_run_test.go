package run_test

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// demoOverHTTP runs the demo server over Streamable HTTP and returns its
// endpoint URL.
func demoOverHTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(demo(t), "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
				found <- strings.TrimSpace(url)
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(20 * time.Second):
		t.Fatal("the demo server did not say where it listens")
	}
	return ""
}

const stepSuite = `
servers:
  demo:
    command: ["DEMO"]
  web:
    url: "URL"
tools:
  - name: fast enough
    server: demo
    tool: echo
    args: {message: "quick"}
    expect:
      assertions:
        - {target: "result.content[0].text", matcher: {eq: "quick"}}
      max_duration_ms: 5000
  - name: too slow
    server: demo
    tool: slow
    args: {ms: 300}
    expect:
      assertions: []
      max_duration_ms: 50
  - name: too slow even with a threshold met
    server: demo
    tool: slow
    args: {ms: 301}
    threshold: 0.1
    expect:
      assertions:
        - {target: "result.content[0].text", matcher: {eq: "done"}}
      max_duration_ms: 50
  - name: short enough
    server: demo
    tool: echo
    args: {message: "twelve chars"}
    expect: {assertions: [], max_response_tokens: 3}
  - name: too many tokens
    server: demo
    tool: echo
    args: {message: "a message of forty characters, near enough"}
    expect: {assertions: [], max_response_tokens: {budget: 5, mode: text}}
  - name: headers of an HTTP server
    server: web
    tool: echo
    args: {message: "hi"}
    expect:
      assertions:
        - {target: "result.content[0].text", matcher: {eq: "hi"}}
      response_headers:
        content-type: {contains: "json"}
        date: {exists: true}
      response_headers_absent: [set-cookie]
  - name: a header check that fails
    server: web
    tool: echo
    args: {message: "hi"}
    expect:
      assertions: []
      response_headers:
        content-type: "text/plain"
`

func TestStepChecksRun(t *testing.T) {
	pl, h := setupScoring(t, stepSuite, demoOverHTTP(t))
	_, tests := runScoring(t, pl, h)
	want := map[string]report.Status{
		"fast enough": report.StatusPassed, "too slow": report.StatusFailed, "too slow even with a threshold met": report.StatusFailed,
		"short enough": report.StatusPassed, "too many tokens": report.StatusFailed,
		"headers of an HTTP server": report.StatusPassed, "a header check that fails": report.StatusFailed,
	}
	for name, st := range want {
		tr, ok := tests[name]
		if !ok {
			t.Errorf("%s: not run", name)
			continue
		}
		if tr.Status != st {
			t.Errorf("%s: %s, want %s: %+v %+v", name, tr.Status, st, tr.Assertions, tr.Error)
		}
	}
	slow := tests["too slow"].Assertions
	if len(slow) != 1 || slow[0].Matcher != "max_duration_ms" || slow[0].Index != 0 || !strings.Contains(string(slow[0].Failure), "over the budget of 50 ms") {
		t.Errorf("too slow = %+v", slow)
	}
	if tr := tests["too slow even with a threshold met"]; tr.Score == nil || *tr.Score != 1 || tr.Assertions[1].Index != 1 {
		t.Errorf("a gate is not scored: %+v", tr)
	}
	if a := tests["too many tokens"].Assertions[0]; !strings.Contains(string(a.Failure), `"actual":11`) {
		t.Errorf("tokens = %s", a.Failure)
	}
	hs := tests["headers of an HTTP server"].Assertions
	if len(hs) != 4 || hs[1].Target != "headers.content-type" || hs[2].Target != "headers.date" || hs[3].Matcher != "response_headers_absent" {
		t.Errorf("header checks = %+v", hs)
	}
	if a := tests["a header check that fails"].Assertions[0]; !strings.Contains(string(a.Failure), `"expected":"text/plain"`) {
		t.Errorf("header failure = %s", a.Failure)
	}
}
