package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/textbench"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// BenchmarkJudge100k measures the performance budget of issue 5: "100,000
// assertions through the text plugin in one run: at most 1 µs per
// assertion amortised over a direct Go call measured in the same run".
//
// It judges the assertions of internal/textbench the way a run does once
// each call has answered: the suite is loaded and planned as `mcptest run`
// does (so every assertion carries what a real one carries), the built
// text plugin runs as its own process, and the 1,000 tests are judged
// concurrently within Execute's bound, each through Judge.Test
// (extraction, transforms, requests, the coalescer, Host.Match, reading
// the verdicts back) and Verdict (scoring). No server runs: the
// response envelopes are prepared. ns/assert is the wall time over all
// 100,000 assertions.
//
// BenchmarkDirect100k in plugins/matchers/text is the floor, the same
// items through direct calls of the Go matchers; bench/run.sh subtracts it
// and holds the difference to 1 µs.
func BenchmarkJudge100k(b *testing.B) {
	// This process plays mcptest's part, so it runs with mcptest's
	// collector settings.
	plugin.TuneHostGC()
	dir := filepath.Join(benchModuleRoot(b), "bin", "mcptest-plugins")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no built plugins in %s; run make build first", dir)
	}
	gen := textbench.Generate()
	p := planText100k(b, dir, gen)
	ctx := context.Background()

	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{})
	b.Cleanup(host.Close)
	if err := host.Start(ctx, p.Matchers); err != nil {
		// A stale build (checksum or describe mismatch) lands here too.
		b.Fatalf("start the text plugin: %v (run make build)", err)
	}
	// As before a run: the plugin vets (and compiles) every argument.
	if err := CheckArguments(ctx, host, p); err != nil {
		b.Fatal(err)
	}
	var secrets []string
	for _, s := range p.Suites {
		secrets = append(secrets, s.Secrets...)
	}
	// The judge as run.Execute sets it up, with the options `mcptest run`
	// passes that judging reads, and as many tests under way at once as
	// Execute's workers run with its default bound: 4 x GOMAXPROCS
	// requests in flight, plan.TestsPerCallSlot tests per request slot
	// (runBatch). No server call is made here, so only the tests' bound
	// applies. (Until round 5 this was the request bound alone, 8 tests
	// on two cores against Execute's 32, which understated how many
	// tests' assertions a run has to coalesce.)
	c := plugin.NewCoalescer(host)
	b.Cleanup(c.Close)
	jd := &Judge{Match: c.Match, MatchInto: c.MatchInto, Redact: redact.New(secrets...), OnPluginError: func(error) {}}
	concurrency := min(plan.Batch{}.Slots(4*runtime.GOMAXPROCS(0)), len(p.Tests))
	checkText100kRequests(b, jd, p, gen)

	// From here on only the envelopes and the expected verdicts are kept:
	// the rest of the generator's data (gen is dead after this) would be
	// live heap a run does not have, and every collection would mark it.
	envelopes := make([]json.RawMessage, len(gen))
	for i, t := range gen {
		envelopes[i] = t.Envelope
	}
	passes := make([][]bool, len(gen))
	for i, t := range gen {
		for _, a := range t.Assertions {
			passes[i] = append(passes[i], a.Pass)
		}
	}

	results := make([]rpt.Test, len(p.Tests))
	judgeAll := func() {
		// A run holds one set of results, not the previous op's as well.
		clear(results)
		var wg sync.WaitGroup
		sem := make(chan struct{}, concurrency)
		for i, t := range p.Tests {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				res := rpt.Test{ID: t.ID, Name: t.Name, File: t.Suite.File, Line: t.Pos.Line, Col: t.Pos.Col, Server: t.Server.Name} // as run's test header
				res.Assertions = jd.Test(ctx, t, envelopes[i])
				Verdict(t, &res, nil)
				results[i] = res
			}()
		}
		wg.Wait()
	}
	judgeAll()
	checkText100kVerdicts(b, results, passes)

	b.ReportAllocs()
	for b.Loop() {
		judgeAll()
	}
	n := float64(b.N * textbench.Tests * textbench.AssertionsPerTest)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/assert")
}

// planText100k writes the generated tests as a suite, one tool test per
// generated test, and loads and plans it against the plugins in dir as
// `mcptest run` would.
func planText100k(b *testing.B, dir string, gen []textbench.Test) *plan.Plan {
	b.Helper()
	var sb strings.Builder
	sb.WriteString("servers:\n  demo:\n    command: [\"./bin/mcptest-demo-server\"]\ntools:\n")
	for _, t := range gen {
		fmt.Fprintf(&sb, "  - name: %q\n    server: demo\n    tool: echo\n    args: {message: hi}\n    expect:\n", t.Name)
		for _, a := range t.Assertions {
			// JSON is YAML, and the generator's values hold no "$", which
			// the loader would read as a variable.
			fmt.Fprintf(&sb, "      - target: %s\n        matcher: {%s: %s}\n", a.Target, a.Key, a.Argument)
		}
	}
	path := filepath.Join(b.TempDir(), filepath.Base(textbench.SuiteFile))
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	reg := plugin.NewRegistry([]plugin.Source{{Dir: dir, Origin: "bundled"}})
	p, err := plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Run: true})
	if err != nil {
		b.Fatalf("plan the suite: %v (run make build)", err)
	}
	if len(p.Tests) != len(gen) {
		b.Fatalf("planned %d tests, generated %d", len(p.Tests), len(gen))
	}
	return p
}

// checkText100kRequests makes sure the core sends what the direct
// benchmark judges: per assertion the same key, argument and actual value,
// or the two benchmarks time different work.
func checkText100kRequests(b *testing.B, jd *Judge, p *plan.Plan, gen []textbench.Test) {
	b.Helper()
	for i, t := range p.Tests {
		j := jd.newJudging(context.Background(), t, gen[i].Envelope)
		for k, a := range t.Assertions {
			j.prepare(k, a, false)
		}
		if len(j.reqs) != len(gen[i].Assertions) {
			b.Fatalf("test %d: %d requests, %d generated assertions", i, len(j.reqs), len(gen[i].Assertions))
		}
		for k, q := range j.reqs {
			g := gen[i].Assertions[k]
			if q.Key != g.Key || !bytes.Equal(q.Actual, g.Actual) || !bytes.Equal(q.Argument, g.Argument) {
				b.Fatalf("test %d assertion %d: the core sends %s(%s) on %s, the generator has %s(%s) on %s",
					i, k, q.Key, q.Argument, q.Actual, g.Key, g.Argument, g.Actual)
			}
		}
	}
}

// checkText100kVerdicts makes sure the plugin reached the generator's
// verdict (passes, per test and assertion) on every assertion: a matcher
// erroring fast would make the pipeline look cheaper than it is.
func checkText100kVerdicts(b *testing.B, results []rpt.Test, passes [][]bool) {
	b.Helper()
	for i, res := range results {
		for k, a := range res.Assertions {
			want := rpt.StatusFailed
			if passes[i][k] {
				want = rpt.StatusPassed
			}
			if a.Status != want {
				b.Fatalf("test %d assertion %d (%s): %s, want %s (error %q)", i, k, a.Matcher, a.Status, want, a.Error)
			}
		}
	}
}

// benchModuleRoot walks up from the package directory to the go.mod.
func benchModuleRoot(b *testing.B) string {
	b.Helper()
	dir, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			b.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}
