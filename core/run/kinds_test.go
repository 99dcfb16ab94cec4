package run_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/testbin"
	"github.com/mcptest/mcptest/sdk/report"
)

// chaos returns the chaos server, built once for the package's tests; in
// -short mode it skips t instead (testbin).
func chaos(t *testing.T) string {
	t.Helper()
	return testbin.Build(t, "github.com/mcptest/mcptest/examples/servers/chaos")
}

// expectStatus checks every test's status against want, by name.
func expectStatus(t *testing.T, res *report.Run, want map[string]report.Status) {
	t.Helper()
	got := flowResults(res)
	for name, st := range want {
		tr, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: not in the report", name)
		case tr.Status != st:
			t.Errorf("%s: %s, want %s\n%s", name, tr.Status, st, flowExplain(tr))
		}
	}
}

const listSuite = `
servers:
  demo:
    command: ["sh", "-c", "tee -a LOG | DEMO"]
lists:
  - name: every resource, three pages
    server: demo
    list: resources
    expect:
      - {target: pages, matcher: {eq: 3}}
      - {target: cursors.length, matcher: {eq: 2}}
      - {target: result.resources.length, matcher: {eq: 48}}
      - {target: "result.resources[47].name", matcher: {eq: "readme"}}
  - name: the same listing again
    server: demo
    list: resources
    expect:
      - {target: result.resources.length, matcher: {eq: 48}}
  - name: first page only
    server: demo
    list: resources
    pages: 1
    capture: {next: result.nextCursor}
    expect:
      - {target: result.resources.length, matcher: {eq: 20}}
      - {target: "result.resources[19].name", matcher: {eq: "catalog-20"}}
  - name: the page after it
    server: demo
    list: resources
    cursor: "${capture:next}"
    expect:
      - {target: pages, matcher: {eq: 1}}
      - {target: "result.resources[0].name", matcher: {eq: "catalog-21"}}
      - {target: result.nextCursor, matcher: {positive: true}}
  - name: tools fit in one page
    server: demo
    list: tools
    expect:
      - {target: pages, matcher: {eq: 1}}
      - {target: cursors, matcher: {eq: []}}
  - name: templates
    server: demo
    list: resource_templates
    expect:
      - {target: "result.resourceTemplates[0].uriTemplate", matcher: {eq: "demo://items/{id}"}}
  - name: prompts without expectations
    server: demo
    list: prompts
  - name: a wrong expectation fails with the envelope
    server: demo
    list: prompts
    expect:
      - {target: pages, matcher: {eq: 2}}
`

func TestListTests(t *testing.T) {
	pl, h, log := flowSetup(t, listSuite, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	expectStatus(t, res, map[string]report.Status{
		"every resource, three pages": report.StatusPassed, "the same listing again": report.StatusPassed,
		"first page only": report.StatusPassed, "the page after it": report.StatusFailed,
		"tools fit in one page": report.StatusPassed, "templates": report.StatusPassed,
		"prompts without expectations": report.StatusPassed, "a wrong expectation fails with the envelope": report.StatusFailed,
	})
	got := flowResults(res)
	// The cursor is a string, not a positive number: that assertion fails,
	// the others pass, and the envelope shows the next cursor.
	after := got["the page after it"]
	if after.Assertions[0].Status != report.StatusPassed || after.Assertions[1].Status != report.StatusPassed ||
		after.Assertions[2].Status != report.StatusFailed || !strings.Contains(string(after.Response), `"nextCursor":"`) {
		t.Errorf("page after: %s", flowExplain(after))
	}
	wrong := got["a wrong expectation fails with the envelope"]
	var env struct {
		Result  map[string]json.RawMessage `json:"result"`
		Pages   int                        `json:"pages"`
		Cursors []string                   `json:"cursors"`
	}
	if err := json.Unmarshal(wrong.Response, &env); err != nil || env.Pages != 1 || env.Result["prompts"] == nil || env.Cursors == nil ||
		len(wrong.Frames) != 2 || wrong.Block != "lists" {
		t.Errorf("failed list test: %v %s", err, flowExplain(wrong))
	}
	// Each page is a request of its own, through the result cache: the
	// identical listings, the first page alone and the page after it share
	// the three distinct requests.
	if n := flowCalls(t, log, "resources/list"); n != 3 {
		t.Errorf("resources/list reached the server %d times, want 3: one per distinct page, whichever test asked", n)
	}
}

func TestListThatNeverEnds(t *testing.T) {
	bin := chaos(t)
	pl, h, _ := flowSetup(t, `
servers:
  loop: {command: ["`+bin+`", "-list-cursor", "loop"]}
  endless: {command: ["`+bin+`", "-list-cursor", "endless"]}
lists:
  - {name: a cursor that comes back, server: loop, list: resources}
  - {name: pages past max_pages, server: endless, list: resources, max_pages: 5}
  - name: the first pages of an endless list
    server: endless
    list: resources
    pages: 3
    expect:
      - {target: pages, matcher: {eq: 3}}
      - {target: result.nextCursor, matcher: {eq: "page-3"}}
      - {target: cursors, matcher: {eq: ["page-1", "page-2"]}}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, NoCache: true})
	expectStatus(t, res, map[string]report.Status{
		"a cursor that comes back": report.StatusErrored, "pages past max_pages": report.StatusErrored,
		"the first pages of an endless list": report.StatusPassed,
	})
	got := flowResults(res)
	loop := got["a cursor that comes back"]
	if e := loop.Error; e == nil || e.Kind != "endless_list" || !strings.Contains(e.Message, `page 2 returned nextCursor "again", which page 1 already returned`) ||
		len(loop.Frames) != 4 {
		t.Errorf("loop: %s", flowExplain(loop))
	}
	if e := got["pages past max_pages"].Error; e == nil || e.Kind != "endless_list" || !strings.Contains(e.Message, "still a nextCursor after 5 pages (max_pages: 5)") {
		t.Errorf("endless: %+v", e)
	}
	if res.ExitCode != 2 {
		t.Errorf("exit %d", res.ExitCode)
	}
}

func TestCompletionTests(t *testing.T) {
	bin := chaos(t)
	pl, h, log := flowSetup(t, `
servers:
  demo:
    command: ["sh", "-c", "tee -a LOG | DEMO"]
  bare: {command: ["`+bin+`"]}
tools:
  - name: typed so far
    server: demo
    tool: echo
    args: {message: "Os"}
    capture: {typed: "result.content[0].text"}
completions:
  - name: a Norwegian city
    server: demo
    ref: {prompt: travel}
    argument: {name: city, value: "${capture:typed}"}
    context: {country: "NO"}
    expect:
      - {target: result.completion.values, matcher: {eq: ["Oslo"]}}
      - {target: result.completion.total, matcher: {eq: 1}}
  - name: any city, no context
    server: demo
    ref: {prompt: travel}
    argument: {name: city, value: "St"}
    expect:
      - {target: result.completion.values, matcher: {eq: ["Stavanger", "Stockholm"]}}
  - name: more ids than one answer holds
    server: demo
    ref: {resource: "demo://items/{id}"}
    argument: {name: id}
    expect:
      - {target: result.completion.values.length, matcher: {eq: 100}}
      - {target: result.completion.hasMore, matcher: {eq: true}}
      - {target: result.completion.total, matcher: {eq: 250}}
  - name: unknown argument is an rpc error
    server: demo
    ref: {prompt: travel}
    argument: {name: planet}
  - name: a server without completions
    server: bare
    ref: {prompt: travel}
    argument: {name: city}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	expectStatus(t, res, map[string]report.Status{
		"a Norwegian city": report.StatusPassed, "any city, no context": report.StatusPassed,
		"more ids than one answer holds": report.StatusPassed, "unknown argument is an rpc error": report.StatusFailed,
		"a server without completions": report.StatusErrored,
	})
	got := flowResults(res)
	if e := got["unknown argument is an rpc error"].Error; e == nil || e.Kind != "rpc_error" {
		t.Errorf("rpc error: %+v", e)
	}
	if e := got["a server without completions"].Error; e == nil || e.Kind != "capability" ||
		!strings.Contains(e.Message, `server "bare" did not declare the completions capability`) {
		t.Errorf("capability: %+v", e)
	}
	// What reached the server: the context when the test gives one, and
	// no context at all (never null) when it does not.
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var withCtx, without int
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.Contains(line, `"completion/complete"`) {
			continue
		}
		switch {
		case strings.Contains(line, `"context":{"arguments":{"country":"NO"}}`) && strings.Contains(line, `"value":"Os"`):
			withCtx++
		case !strings.Contains(line, `"context"`):
			without++
		default:
			t.Errorf("unexpected request: %s", line)
		}
	}
	if withCtx != 1 || without != 3 {
		t.Errorf("%d requests with context, %d without; want 1 and 3", withCtx, without)
	}
}

// recorder keeps what the runner sent (Options.OnCall).
type recorder struct {
	mu    sync.Mutex
	calls []string // "method params -> result"
}

func (r *recorder) observe(method string, params json.RawMessage, result json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, method+" "+string(params)+" -> "+string(result))
}

func TestRestartPerTestAndFixtures(t *testing.T) {
	dir := t.TempDir()
	fixture := filepath.Join(dir, "fixtures", "fs")
	if err := os.MkdirAll(filepath.Join(fixture, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fixture, "sub", "seed.txt"), []byte("seed"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The server's command records the fixture copy it was given and what
	// the copy held, then writes into the copy: the original must never
	// change, and each start must see a pristine copy.
	suite := `
servers:
  fresh:
    command: ["sh", "-c", "echo \"start $$FIX $(ls $$FIX/sub) $(ls $$FIX | tr '\\n' ' ')\" >> LOG; touch $$FIX/written; tee -a LOG | DEMO"]
    env: {FIX: "${fixture}"}
    fixture: ./fixtures/fs
    restart_policy: per_test
  shared:
    command: ["sh", "-c", "echo \"start $0\" >> LOG; tee -a LOG | DEMO", "${fixture}"]
    fixture: ./fixtures/fs
tools:
  - {name: fresh one, server: fresh, tool: echo, args: {message: "${fixture}/a"}}
  - {name: fresh two, server: fresh, tool: echo, args: {message: "${fixture}/a"}}
  - {name: fresh three, server: fresh, tool: echo, args: {message: "${fixture}/a"}}
  - {name: shared one, server: shared, tool: echo, args: {message: "${fixture}"}}
  - {name: shared two, server: shared, tool: echo, args: {message: "${fixture}"}}
resources:
  - {name: uri expands, server: shared, uri: "demo://items/${fixture}"}
`
	pl, h, log := flowSetupIn(t, dir, suite, plan.Selection{})
	rec := &recorder{}
	res := run.Execute(context.Background(), pl, run.Options{Host: h, OnCall: func(_ *config.Suite, _ *config.Server, _ *session.Session, method string, params json.RawMessage, out *session.Outcome, _ error) {
		if out != nil {
			rec.observe(method, params, out.Result)
		}
	}})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusErrored && tr.Name != "uri expands" && tr.Status != report.StatusPassed {
			t.Errorf("%s: %s", tr.Name, flowExplain(tr))
		}
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var freshCopies, sharedCopies []string
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "start" && strings.Contains(line, "seed.txt"):
			freshCopies = append(freshCopies, f[1])
			// A pristine copy: the seed, and nothing an earlier start wrote.
			if strings.Contains(line, "written") {
				t.Errorf("a per_test start saw an earlier start's file: %s", line)
			}
		case len(f) == 2 && f[0] == "start":
			sharedCopies = append(sharedCopies, f[1])
		}
	}
	if len(freshCopies) != 3 || freshCopies[0] == freshCopies[1] || freshCopies[1] == freshCopies[2] || freshCopies[0] == freshCopies[2] {
		t.Errorf("per_test starts: %v", freshCopies)
	}
	if len(sharedCopies) != 1 {
		t.Errorf("per_run starts: %v", sharedCopies)
	}
	// The requests carried the copy's path, never ${fixture}.
	copies := append(append([]string{}, freshCopies...), sharedCopies...)
	sent := 0
	for _, c := range rec.calls {
		if strings.Contains(c, "${fixture}") {
			t.Errorf("unexpanded: %s", c)
		}
		for _, cp := range copies {
			if strings.Contains(c, cp) {
				sent++
				break
			}
		}
	}
	if sent != 6 {
		t.Errorf("%d requests named a copy, want 6:\n%s", sent, strings.Join(rec.calls, "\n"))
	}
	// Each per_test start answered its own test: the three echoes name
	// three different copies.
	seen := map[string]bool{}
	for _, c := range rec.calls {
		for _, cp := range freshCopies {
			if strings.Contains(c, `"text":"`+cp+`/a"`) {
				seen[cp] = true
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("echo answers named %d fresh copies, want 3", len(seen))
	}
	// The original is untouched and every copy is gone.
	if _, err := os.Stat(filepath.Join(fixture, "written")); !os.IsNotExist(err) {
		t.Errorf("the original fixture was written to: %v", err)
	}
	for _, cp := range copies {
		if _, err := os.Stat(cp); !os.IsNotExist(err) {
			t.Errorf("copy %s left behind: %v", cp, err)
		}
	}
	// One record per server in the report, per_test or not.
	if len(res.Servers) != 2 || res.Servers[0].ServerName != "mcptest-demo" || res.Servers[1].ServerName != "mcptest-demo" {
		t.Errorf("servers: %+v", res.Servers)
	}
}

func TestPerTestServersAreNeverCached(t *testing.T) {
	pl, h, log := flowSetup(t, `
servers:
  fresh:
    command: ["sh", "-c", "tee -a LOG | DEMO"]
    restart_policy: per_test
resources:
  - {name: one, server: fresh, uri: "demo://readme"}
  - {name: two, server: fresh, uri: "demo://readme"}
  - {name: three, server: fresh, uri: "demo://readme"}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	if res.Summary.Passed != 3 {
		t.Fatalf("summary %+v", res.Summary)
	}
	if n, m := flowCalls(t, log, "resources/read"), flowCalls(t, log, "initialize"); n != 3 || m != 3 {
		t.Errorf("%d reads and %d initializes reached the servers, want 3 and 3", n, m)
	}
	for _, tr := range res.Tests {
		if tr.CacheHit {
			t.Errorf("%s: cache hit", tr.Name)
		}
	}
}

func TestFixtureCopyRemovedWhenTheServerFailsToStart(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	pl, h, log := flowSetupIn(t, dir, `
servers:
  broken:
    command: ["sh", "-c", "echo \"$0\" >> LOG; exit 3", "${fixture}"]
    fixture: ./data
tools:
  - {name: never runs, server: broken, tool: echo, args: {message: x}}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h})
	if tr := res.Tests[0]; tr.Status != report.StatusErrored || tr.Error.Kind != "server_start" {
		t.Fatalf("%s", flowExplain(tr))
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	cp := strings.TrimSpace(string(raw))
	if !strings.Contains(cp, "mcptest-fixture-") {
		t.Fatalf("copy path %q", cp)
	}
	if _, err := os.Stat(cp); !os.IsNotExist(err) {
		t.Errorf("copy %s left behind: %v", cp, err)
	}
}
