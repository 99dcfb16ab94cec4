package main

// The dispatch benchmark measures the DESIGN.md budget "plugin dispatch
// ≤ 2 µs per assertion amortised": the same exact assertions are judged
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
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// dispatchBatch is the batch size the budget is stated for; it is also the
// host's default MaxBatchItems, so one Host.Match call is one RPC.
const dispatchBatch = 1000

// dispatchSingle is how many one-item calls make one op of the unbatched
// variant: enough to average out wake-up jitter, few enough (~15 ms at
// ~135 µs per RPC) that the op stays short.
const dispatchSingle = 100

// BenchmarkDispatch compares judging exact assertions in the text plugin
// process, batched and one per call, with the same batches served in this
// process and with calling the matcher directly. Every variant reports
// ns/assert; the driver subtracts direct from plugin-batch to get the
// dispatch overhead.
func BenchmarkDispatch(b *testing.B) {
	items := dispatchItems(dispatchBatch)
	host, found := startTextPlugin(b)

	// Both paths must agree on every verdict, or the comparison is of
	// different work (a matcher erroring fast in one of them, say).
	want := matchDirect(b, items)
	got := host.Match(context.Background(), matchRequests(found, items))
	for i := range items {
		if got[i].Err != nil {
			b.Fatalf("item %d: plugin error: %v", i, got[i].Err)
		}
		if got[i].Pass != want[i] {
			b.Fatalf("item %d: plugin says pass=%v, direct call says %v", i, got[i].Pass, want[i])
		}
	}

	b.Run("plugin-batch", func(b *testing.B) {
		reqs := matchRequests(found, items)
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for _, o := range host.Match(ctx, reqs) {
				if o.Err != nil {
					b.Fatal(o.Err)
				}
			}
		}
		reportPerAssert(b, dispatchBatch)
	})

	b.Run("plugin-single", func(b *testing.B) {
		reqs := matchRequests(found, items[:dispatchSingle])
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for i := range reqs {
				if o := host.Match(ctx, reqs[i:i+1]); o[0].Err != nil {
					b.Fatal(o[0].Err)
				}
			}
		}
		reportPerAssert(b, dispatchSingle)
	})

	// The same batches through the same SDK server and gRPC, but served
	// from this process: plugin-batch minus this is what the process
	// boundary costs, this minus direct what the protocol and the SDK's
	// per-item work (options, failure JSON) cost.
	b.Run("sdk-inproc", func(b *testing.B) {
		conn := plugintest.New(b, newPlugin(), nil)
		batch := make([]sdk.MatchItem, len(items))
		for i, it := range items {
			batch[i] = sdk.MatchItem{ID: uint64(i), Key: "exact", Actual: it.actual, Argument: it.argument, Options: it.options}
		}
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := conn.Matcher.Match(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		reportPerAssert(b, dispatchBatch)
	})

	b.Run("direct", func(b *testing.B) {
		m := newPlugin().Matchers["exact"]
		inputs := directInputs(b, items)
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for _, in := range inputs {
				if _, err := m.Match(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportPerAssert(b, dispatchBatch)
	})
}

// reportPerAssert reports the mean time per assertion of the finished loop.
func reportPerAssert(b *testing.B, perOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perOp), "ns/assert")
}

// dispatchItem is one exact assertion as the core would send it.
type dispatchItem struct {
	actual, argument, options json.RawMessage
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
		opts, _ := json.Marshal(map[string]string{
			"test_id":    fmt.Sprintf("suites/orders.yml::tools::order %d ships", i),
			"test_name":  fmt.Sprintf("order %d ships", i),
			"target":     "result.content[0].text",
			"suite_file": "suites/orders.yml",
			"suite_dir":  "suites",
		})
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

// directInputs decodes the options once, up front: the floor is the
// matcher's own work, and option decoding is part of what the plugin path
// pays per item.
func directInputs(b *testing.B, items []dispatchItem) []sdk.MatchInput {
	b.Helper()
	out := make([]sdk.MatchInput, len(items))
	for i, it := range items {
		in := sdk.MatchInput{Key: "exact", Actual: it.actual, Argument: it.argument, Host: benchNoHost{}}
		if err := json.Unmarshal(it.options, &in.Options); err != nil {
			b.Fatal(err)
		}
		out[i] = in
	}
	return out
}

// matchDirect returns the direct call's verdicts.
func matchDirect(b *testing.B, items []dispatchItem) []bool {
	b.Helper()
	m := newPlugin().Matchers["exact"]
	out := make([]bool, len(items))
	for i, in := range directInputs(b, items) {
		r, err := m.Match(context.Background(), in)
		if err != nil {
			b.Fatalf("item %d: %v", i, err)
		}
		out[i] = r.Pass
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
