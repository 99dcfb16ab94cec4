package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/internal/testbin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// demo returns the demo server, built once for the package's tests; in
// -short mode it skips t instead (testbin).
func demo(t testing.TB) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/demo")
}

// withDemo replaces DEMO in text with the demo server, building it only
// when text names it, so suites without a real server run under -short.
func withDemo(t testing.TB, text string) string {
	t.Helper()
	if !strings.Contains(text, "DEMO") {
		return text
	}
	return strings.ReplaceAll(text, "DEMO", demo(t))
}

// eqMatcher passes when actual equals the argument; argument "boom" makes
// the item error.
type eqMatcher struct{}

func (m *eqMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if string(in.Argument) == `"boom"` {
		return sdk.MatchResult{}, fmt.Errorf("cannot judge this")
	}
	if string(in.Actual) == string(in.Argument) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Expected: in.Argument, Actual: in.Actual}), nil
}

// setup loads a suite, plans it against one in-process matcher plugin and
// returns the plan and a host.
func setup(t *testing.T, suite string) (*plan.Plan, *plugin.Host) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(withDemo(t, suite)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &eqMatcher{}}}
	dir := t.TempDir()
	writeManifest(t, dir, p)
	reg := plugin.NewRegistry([]plugin.Source{{Dir: dir}})
	pl, err := plan.Build([]*config.Suite{s}, reg)
	if err != nil {
		t.Fatal(err)
	}
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{})
	t.Cleanup(func() { h.Close(); l.Close() })
	return pl, h
}

func writeManifest(t *testing.T, dir string, p *sdk.Plugin) {
	t.Helper()
	m := inproc.Found(p).Manifest
	raw, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	pd := filepath.Join(dir, p.Name)
	if err := os.MkdirAll(pd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pd, plugin.ManifestFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

type events struct {
	mu  sync.Mutex
	evs []report.Event
}

func (e *events) Emit(_ context.Context, ev report.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

const suite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: pass
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "hi"}}
  - name: fail
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "bye"}}
  - name: missing target
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[5].text", matcher: {eq: "hi"}}
  - name: matcher error
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "boom"}}
  - name: rpc error is asserted on
    server: demo
    tool: no_such_tool
    expect:
      - {target: "error.code", matcher: {eq: -32602}}
  - name: rpc error without expectations fails
    server: demo
    tool: no_such_tool
  - name: isError without expectations fails
    server: demo
    tool: fail
`

func TestExecuteOutcomes(t *testing.T) {
	pl, h := setup(t, suite)
	ev := &events{}
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Events: ev, ToolVersion: "test"})
	want := map[string]report.Status{
		"pass": report.StatusPassed, "fail": report.StatusFailed, "missing target": report.StatusFailed,
		"matcher error": report.StatusErrored, "rpc error is asserted on": report.StatusPassed,
		"rpc error without expectations fails": report.StatusFailed,
		"isError without expectations fails":   report.StatusFailed,
	}
	for _, tr := range res.Tests {
		if tr.Status != want[tr.Name] {
			t.Errorf("%s: status %s, want %s (%+v)", tr.Name, tr.Status, want[tr.Name], tr)
		}
		if tr.DurationMS <= 0 {
			t.Errorf("%s: no duration", tr.Name)
		}
	}
	byName := map[string]report.Test{}
	for _, tr := range res.Tests {
		byName[tr.Name] = tr
	}
	if f := string(byName["missing target"].Assertions[0].Failure); !strings.Contains(f, "target not found") || !strings.Contains(f, "out of range") {
		t.Errorf("missing target failure = %s", f)
	}
	if e := byName["matcher error"].Assertions[0].Error; !strings.Contains(e, "cannot judge this") {
		t.Errorf("matcher error = %q", e)
	}
	if e := byName["rpc error without expectations fails"].Error; e == nil || e.Kind != "rpc_error" || !strings.Contains(e.Message, "-32602") {
		t.Errorf("rpc error = %+v", e)
	}
	fail := byName["fail"]
	if len(fail.Frames) < 2 || fail.Response == nil || !json.Valid(fail.Response) {
		t.Errorf("a failed test keeps its frames and response: %+v", fail)
	}
	if len(byName["pass"].Frames) != 0 {
		t.Errorf("a passing test carries no frames")
	}
	if res.ExitCode != 2 || res.Summary.Passed != 2 || res.Summary.Failed != 4 || res.Summary.Errored != 1 {
		t.Errorf("summary %+v exit %d", res.Summary, res.ExitCode)
	}
	if len(res.Servers) != 1 || res.Servers[0].ServerName != "mcptest-demo" || res.Servers[0].ProtocolVersion != "2025-11-25" {
		t.Errorf("servers = %+v", res.Servers)
	}
	// Events: run_started, a started and a finished per test.
	counts := map[report.EventType]int{}
	for _, e := range ev.evs {
		counts[e.Type]++
	}
	if counts[report.EventRunStarted] != 1 || counts[report.EventTestStarted] != 7 || counts[report.EventTestFinished] != 7 {
		t.Errorf("events = %v", counts)
	}
}

func TestManyConcurrentTestsOnOneServer(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\ntools:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  - name: t%d\n    server: demo\n    tool: echo\n    args: {message: \"m%d\"}\n    expect:\n      - {target: \"result.content[0].text\", matcher: {eq: \"m%d\"}}\n", i, i, i)
	}
	pl, h := setup(t, b.String())
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 64})
	if res.Summary.Passed != 200 {
		t.Fatalf("summary = %+v", res.Summary)
	}
}

func TestCancelledRunSkipsTestsNotBegun(t *testing.T) {
	pl, h := setup(t, suite)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := run.Execute(ctx, pl, run.Options{Host: h})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusSkipped {
			t.Errorf("%s: %s, want skipped", tr.Name, tr.Status)
		}
	}
}

func TestResourceAndPromptTests(t *testing.T) {
	pl, h := setup(t, `
servers:
  demo:
    command: ["DEMO"]
resources:
  - name: readme is markdown
    server: demo
    uri: "demo://readme"
    expect:
      - {target: "result.contents[0].mimeType", matcher: {eq: "text/markdown"}}
  - name: unknown resource is an rpc error
    server: demo
    uri: "demo://nope"
    expect:
      - {target: "error.code", matcher: {eq: -32002}}
prompts:
  - name: review prompt renders
    server: demo
    prompt: review_code
    args: {code: "x := 1"}
    expect:
      - {target: "result.messages[0].role", matcher: {eq: "user"}}
  - name: prompt without expectations passes when it renders
    server: demo
    prompt: summarize
`)
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed {
			t.Errorf("%s (%s): %s %+v %s", tr.Name, tr.Block, tr.Status, tr.Error, tr.Response)
		}
		if tr.Block != "resources" && tr.Block != "prompts" {
			t.Errorf("%s: block %q", tr.Name, tr.Block)
		}
	}
}
