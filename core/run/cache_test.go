package run_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

// cacheSuite sends the same greeting four times (once with its arguments
// in another key order, once failing its assertion), another greeting
// once, and reads one resource twice;
// every request line the server receives lands in LOG.
const cacheSuite = `
servers:
  demo:
    command: ["sh", "-c", "tee -a 'LOG' | 'DEMO'"]
tools:
  - name: first
    server: demo
    tool: greet
    args: {name: Ada, greeting: Hi}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "Hi, Ada!"}}
  - name: second
    server: demo
    tool: greet
    args: {greeting: Hi, name: Ada}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "Hi, Ada!"}}
  - name: third
    server: demo
    tool: greet
    args: {name: Ada, greeting: Hi}
  - name: different
    server: demo
    tool: greet
    args: {name: Bob}
  - name: a hit that fails
    server: demo
    tool: greet
    args: {name: Ada, greeting: Hi}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "nope"}}
resources:
  - {name: read once, server: demo, uri: "demo://readme"}
  - {name: read twice, server: demo, uri: "demo://readme"}
`

func flowHits(r *report.Run) []string {
	var out []string
	for _, tr := range r.Tests {
		if tr.CacheHit {
			out = append(out, tr.Name)
		}
	}
	return out
}

func TestIdenticalRequestsAreServedFromCache(t *testing.T) {
	pl, h, log := flowSetup(t, cacheSuite, plan.Selection{})
	// One test at a time, so that which test leads is deterministic.
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1})
	if res.Summary.Passed != 6 || res.Summary.Failed != 1 {
		t.Fatalf("summary %+v\n%v", res.Summary, res.Tests)
	}
	if got := strings.Join(flowHits(res), ","); got != "second,third,a hit that fails,read twice" {
		t.Errorf("cache hits = %s", got)
	}
	// The proof: the server received two tool calls, not four, and one
	// read, not two.
	if n := flowCalls(t, log, "tools/call"); n != 2 {
		t.Errorf("the server received %d tools/call, want 2", n)
	}
	if n := flowCalls(t, log, "resources/read"); n != 1 {
		t.Errorf("the server received %d resources/read, want 1", n)
	}
	// A hit that fails shows the exchange its answer came from, timed
	// from its own start.
	failed := flowResults(res)["a hit that fails"]
	if len(failed.Frames) != 2 || failed.Frames[0].AtMS < 0 || !strings.Contains(string(failed.Frames[1].Data), "Hi, Ada!") {
		t.Errorf("frames of a failed hit:\n%s", flowExplain(failed))
	}
}

func TestConcurrentIdenticalRequestsShareOneCall(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"sh\", \"-c\", \"tee -a 'LOG' | 'DEMO'\"]\ntools:\n")
	for i := range 5 {
		b.WriteString("  - {name: slow" + string(rune('a'+i)) + ", server: demo, tool: slow, args: {ms: 300}, expect: [{target: \"result.content[0].text\", matcher: {eq: done}}]}\n")
	}
	pl, h, log := flowSetup(t, b.String(), plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 8})
	if res.Summary.Passed != 5 || len(flowHits(res)) != 4 {
		t.Fatalf("summary %+v, hits %v", res.Summary, flowHits(res))
	}
	if n := flowCalls(t, log, "tools/call"); n != 1 {
		t.Errorf("the server received %d tools/call, want 1", n)
	}
}

func TestNoCacheSendsEveryRequest(t *testing.T) {
	pl, h, log := flowSetup(t, cacheSuite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, NoCache: true})
	if res.Summary.Passed != 6 || len(flowHits(res)) != 0 {
		t.Fatalf("summary %+v, hits %v", res.Summary, flowHits(res))
	}
	if n := flowCalls(t, log, "tools/call"); n != 5 {
		t.Errorf("the server received %d tools/call, want 5", n)
	}
	// Without caching, tool annotations are never read; the one test that
	// fails has its tool name checked against the list, read once.
	if n := flowCalls(t, log, "tools/list"); n != 1 {
		t.Errorf("the server received %d tools/list, want 1 (for the failing test)", n)
	}
}

func TestToolsWithoutSafeAnnotationsAreNeverCached(t *testing.T) {
	// The server's answers pass through sed, which turns every read-only
	// and idempotent hint off: the same tools now look state-changing.
	suite := strings.Replace(cacheSuite, `"tee -a 'LOG' | 'DEMO'"`,
		`"tee -a 'LOG' | 'DEMO' | sed -u -e 's/\"readOnlyHint\":true/\"readOnlyHint\":false/g' -e 's/\"idempotentHint\":true/\"idempotentHint\":false/g'"`, 1)
	pl, h, log := flowSetup(t, suite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1})
	if res.Summary.Passed != 6 {
		t.Fatalf("summary %+v", res.Summary)
	}
	if got := strings.Join(flowHits(res), ","); got != "read twice" {
		t.Errorf("cache hits = %s, want only the resource read", got)
	}
	if n := flowCalls(t, log, "tools/call"); n != 5 {
		t.Errorf("the server received %d tools/call, want 5", n)
	}
}

func TestCacheFolderCarriesAnswersAcrossRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	suite := `
servers:
  demo:
    command: ["sh", "-c", "tee -a 'LOG' | 'DEMO'"]
    env: {DEMO_TOKEN: "s3cret-value"}
tools:
  - name: sum
    server: demo
    tool: add
    args: {a: 2, b: 3}
    expect:
      - {target: result.structuredContent.sum, matcher: {eq: 5}}
  - name: fails
    server: demo
    tool: fail
    expect:
      - {target: result.isError, matcher: {eq: true}}
`
	work := t.TempDir()
	pl, h, log := flowSetupIn(t, work, suite, plan.Selection{})
	first := run.Execute(context.Background(), pl, run.Options{Host: h, CacheDir: dir})
	if first.Summary.Passed != 2 || len(flowHits(first)) != 0 || flowCalls(t, log, "tools/call") != 2 {
		t.Fatalf("first run: %+v, hits %v, %d calls", first.Summary, flowHits(first), flowCalls(t, log, "tools/call"))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if len(files) != 2 {
		t.Fatalf("cache files = %v", files)
	}
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		if strings.Contains(string(raw), "s3cret") || !strings.Contains(string(raw), `"method":"tools/call"`) {
			t.Errorf("%s: %s", f, raw)
		}
	}

	pl, h, _ = flowSetupIn(t, work, suite, plan.Selection{})
	second := run.Execute(context.Background(), pl, run.Options{Host: h, CacheDir: dir})
	if second.Summary.Passed != 2 || len(flowHits(second)) != 2 {
		t.Fatalf("second run: %+v, hits %v", second.Summary, flowHits(second))
	}
	if n := flowCalls(t, log, "tools/call"); n != 2 {
		t.Errorf("the second run sent %d more tools/call; the cache folder should have answered", n-2)
	}

	// --no-cache ignores the folder.
	pl, h, _ = flowSetupIn(t, work, suite, plan.Selection{})
	third := run.Execute(context.Background(), pl, run.Options{Host: h, NoCache: true})
	if len(flowHits(third)) != 0 || flowCalls(t, log, "tools/call") != 4 {
		t.Errorf("--no-cache: hits %v, %d calls", flowHits(third), flowCalls(t, log, "tools/call"))
	}
}

func TestHooksTurnCachingOff(t *testing.T) {
	suite := strings.Replace(cacheSuite, "tools:\n", "hooks:\n  beforeAll: \"true\"\ntools:\n", 1)
	pl, h, log := flowSetup(t, suite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	if res.Summary.Passed != 6 || len(flowHits(res)) != 0 {
		t.Fatalf("summary %+v, hits %v", res.Summary, flowHits(res))
	}
	if n := flowCalls(t, log, "tools/call"); n != 5 {
		t.Errorf("the server received %d tools/call, want 5", n)
	}
}

// TestPassingRunNeverListsTools: the tools/list a diagnosis needs is not on
// the way of a run whose tests pass.
func TestPassingRunNeverListsTools(t *testing.T) {
	pl, h, log := flowSetup(t, cacheSuite, plan.Selection{Exclude: []string{"a hit that fails"}})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, NoCache: true})
	if res.Summary.Passed != 6 || res.Summary.Total != 6 {
		t.Fatalf("summary %+v", res.Summary)
	}
	if n := flowCalls(t, log, "tools/list"); n != 0 {
		t.Errorf("the server received %d tools/list, want none", n)
	}
}
