package main

// The dispatch benchmark measures the DESIGN.md budget "plugin dispatch
// ≤ 1 µs per assertion amortised": the same exact assertions are judged
// through the built plugin binary (core/plugin.Host over go-plugin gRPC)
// and by a direct Go call of the same matcher, in the same run, so the
// budget is checked against a floor measured under the same load rather
// than against a fixed time. `make bench` (bench/run.sh) prints the verdict.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// dispatchBatch is the batch size the budget is stated for; it is also the
// host's default MaxBatchItems, so one Host.Match call is one RPC.
const dispatchBatch = 1000

// dispatchTimed is how many batches of one way are timed in a row, after
// the untimed one that refills its pools: a steady state, as in a run.
const dispatchTimed = 4

// dispatchSingle is how many one-item calls make one op of the unbatched
// variant: enough to average out wake-up jitter, few enough (~15 ms at
// ~135 µs per RPC) that the op stays short.
const dispatchSingle = 100

// BenchmarkDispatch judges exact assertions in the text plugin process and
// compares that with the floor, a direct Go call of the same matcher.
//
//   - batch: each op judges the same 1,000 items three ways, rotating the
//     order so drift in machine load hits all alike: through the plugin
//     process (ns/assert, the number the budget is about), through the same
//     SDK server and gRPC served from this process (inproc-ns/assert), and
//     directly (direct-ns/assert). overhead-ns/assert is plugin minus
//     direct, what bench/run.sh holds against the 1 µs budget; plugin minus
//     inproc is what the process boundary costs, inproc minus direct what
//     the protocol and the SDK's per-item work (options, failure JSON) cost.
//     Each way is timed in its steady state: dispatchTimed batches in a
//     row after an untimed one (rotateWays).
//   - cold: the same with one timed batch per way right after a forced
//     collection, as earlier rounds measured: heap cold, plugin idle.
//   - single: the plugin with one item per call, to show why the host
//     batches.
//   - plugin, inproc: one of the batch's ways alone in a loop, without
//     forced collections, for profiling that path.
//   - direct: the direct call alone, for profiling the matcher without
//     the plugin's noise; bench/run.sh does not run it.
func BenchmarkDispatch(b *testing.B) {
	// This process plays mcptest's part, so it runs with mcptest's
	// collector settings.
	plugin.TuneHostGC()
	items := dispatchItems(dispatchBatch)
	host, found := startTextPlugin(b)
	reqs := matchRequests(found, items)
	inputs := directInputs(b, items)
	m := newPlugin().Matchers["exact"]
	ctx := context.Background()

	// Both paths must agree on every verdict, or the comparison is of
	// different work (a matcher erroring fast in one of them, say).
	for i, o := range host.Match(ctx, reqs) {
		r, err := m.Match(ctx, inputs[i])
		if o.Err != nil || err != nil {
			b.Fatalf("item %d: plugin error %v, direct error %v", i, o.Err, err)
		}
		if o.Pass != r.Pass {
			b.Fatalf("item %d: plugin says pass=%v, direct call says %v", i, o.Pass, r.Pass)
		}
	}

	// The runner hands the host memory for the outcomes, reused from test
	// to test (core/assert's Judge.MatchInto), so the plugin path does
	// too.
	outcomes := make([]plugin.MatchOutcome, 0, len(reqs))
	viaPlugin := func() {
		for _, o := range host.MatchInto(ctx, reqs, outcomes) {
			if o.Err != nil {
				b.Fatal(o.Err)
			}
		}
	}
	direct := func() {
		for _, in := range inputs {
			if _, err := m.Match(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	}
	conn := plugintest.New(b, newPlugin(), nil)
	// The encoding the host uses with a plugin built on this SDK.
	conn.Matcher.UsePacked(true)
	batch := make([]plugintest.MatchItem, len(items))
	for i, it := range items {
		batch[i] = plugintest.MatchItem{ID: uint64(i), Key: "exact", Actual: it.actual, Argument: it.argument, Options: it.options}
	}
	inProcess := func() {
		res, err := conn.Matcher.Match(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			if r.Error != "" {
				b.Fatal(r.Error)
			}
		}
	}

	// batch is the budget's figure: each way in its steady state.
	b.Run("batch", func(b *testing.B) {
		rotateWays(b, []func(){viaPlugin, inProcess, direct}, dispatchTimed)
	})
	// cold is the method of earlier rounds, for comparison: one batch per
	// way on a freshly collected heap, the plugin process having idled
	// through the other two ways; bench/run.sh prints it for information.
	b.Run("cold", func(b *testing.B) {
		rotateWays(b, []func(){viaPlugin, inProcess, direct}, 0)
	})

	// One way alone in a loop, with no collection forced between ops:
	// what a profile of that path should see (go test -cpuprofile,
	// -memprofile); bench/run.sh does not run these.
	for _, w := range []struct {
		name string
		fn   func()
	}{{"plugin", viaPlugin}, {"inproc", inProcess}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.fn()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*dispatchBatch), "ns/assert")
		})
	}

	b.Run("single", func(b *testing.B) {
		reqs := reqs[:dispatchSingle]
		b.ResetTimer()
		for range b.N {
			for i := range reqs {
				if o := host.Match(ctx, reqs[i:i+1]); o[0].Err != nil {
					b.Fatal(o[0].Err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*dispatchSingle), "ns/assert")
	})

	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			direct()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*dispatchBatch), "ns/assert")
	})
}

// rotateWays times the three ways of the batch variants (plugin,
// in-process, direct), rotating their order from op to op so drift in
// machine load hits all alike, and reports each per assertion and the
// overhead, plugin minus direct.
//
// Each way starts on a collected heap: otherwise the garbage of the
// in-process server is collected on the direct call's time, and the floor
// rises. But a batch right after that collection is not what a run
// judging batch after batch sees: the caches and the collector's state
// are cold, what sync.Pools held is gone, and the plugin process has
// idled while the other two ways ran. With timed > 0 one untimed batch
// warms the way up, then timed batches run in a row, the collections
// their own garbage causes on their time: the steady state the budget
// ("amortised") is about. With timed == 0 the single batch after the
// collection is timed, as earlier rounds measured.
func rotateWays(b *testing.B, ways []func(), timed int) {
	var spent [3]time.Duration
	per := max(timed, 1)
	b.ResetTimer()
	for i := range b.N {
		for k := range ways {
			w := (i + k) % len(ways)
			b.StopTimer()
			runtime.GC()
			if timed > 0 {
				ways[w]()
			}
			b.StartTimer()
			start := time.Now()
			for range per {
				ways[w]()
			}
			spent[w] += time.Since(start)
		}
	}
	n := float64(b.N * per * dispatchBatch)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "ns/assert")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "inproc-ns/assert")
	b.ReportMetric(float64(spent[2].Nanoseconds())/n, "direct-ns/assert")
	b.ReportMetric(float64((spent[0]-spent[2]).Nanoseconds())/n, "overhead-ns/assert")
}

// dispatchItem is one exact assertion as the core would send it.
type dispatchItem struct {
	actual, argument json.RawMessage
	options          sdk.MatchOptions
}

// dispatchItems builds n exact assertions on ~60-byte tool text, the shape
// of `target: result.content[0].text` + `exact: "..."` in a suite. One in
// four fails by a single character, so the matcher also pays for the diff
// a failure carries, as it does in a real run with some red tests.
func dispatchItems(n int) []dispatchItem {
	out := make([]dispatchItem, n)
	for i := range out {
		text := fmt.Sprintf("Order #%06d shipped to warehouse %02d; ETA 2026-12-%02d, status=ok", i, i%37, 1+i%28)
		want := text
		if i%4 == 3 {
			want = text[:len(text)-2] + "KO"
		}
		opts := sdk.MatchOptions{
			TestID:    fmt.Sprintf("suites/orders.yml::tools::order %d ships", i),
			TestName:  fmt.Sprintf("order %d ships", i),
			Target:    "result.content[0].text",
			SuiteFile: "suites/orders.yml",
			SuiteDir:  "suites",
		}
		out[i] = dispatchItem{actual: mustJSON(text), argument: mustJSON(want), options: opts}
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// matchRequests turns items into host requests for the plugin found.
func matchRequests(found *plugin.Found, items []dispatchItem) []plugin.MatchRequest {
	reqs := make([]plugin.MatchRequest, len(items))
	for i, it := range items {
		reqs[i] = plugin.MatchRequest{Plugin: found, Key: "exact", Actual: it.actual, Argument: it.argument, Options: it.options}
	}
	return reqs
}

// directInputs builds the matcher inputs up front: the floor is the
// matcher's own work; carrying the inputs across is what the plugin path
// pays per item.
func directInputs(b *testing.B, items []dispatchItem) []sdk.MatchInput {
	b.Helper()
	out := make([]sdk.MatchInput, len(items))
	for i, it := range items {
		out[i] = sdk.MatchInput{Key: "exact", Actual: it.actual, Argument: it.argument, Options: it.options, Host: benchNoHost{}}
	}
	return out
}

// startTextPlugin starts the built text plugin from bin/mcptest-plugins
// and returns the host and the plugin's entry. The host is closed when the
// benchmark ends.
func startTextPlugin(b *testing.B) (*plugin.Host, *plugin.Found) {
	b.Helper()
	root := moduleRoot(b)
	dir := filepath.Join(root, "bin", "mcptest-plugins")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no built plugins in %s; run make build first", dir)
	}
	reg := plugin.NewRegistry([]plugin.Source{{Dir: dir, Origin: "bundled"}})
	found, err := reg.Resolve(sdk.KindMatcher, "exact")
	if err != nil {
		b.Skipf("matcher exact not found in %s (%v); run make build first", dir, err)
	}
	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{})
	b.Cleanup(host.Close)
	if err := host.Start(context.Background(), []*plugin.Found{found}); err != nil {
		// A stale build (checksum or describe mismatch) lands here too.
		b.Fatalf("start the text plugin: %v (run make build)", err)
	}
	return host, found
}

// moduleRoot walks up from the package directory to the go.mod.
func moduleRoot(b *testing.B) string {
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

// benchNoHost stands in for the host service the plugin path would offer;
// exact never calls it.
type benchNoHost struct{}

func (benchNoHost) Complete(context.Context, string, sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{}, sdk.ErrNoHost
}

func (benchNoHost) Embed(context.Context, string, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, sdk.ErrNoHost
}
