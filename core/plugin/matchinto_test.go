package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// eqRequests are n requests of the eq matcher for test tag, every third
// failing; want says which pass.
func eqRequests(f *plugin.Found, tag string, n int) (reqs []plugin.MatchRequest, want []bool) {
	for i := range n {
		actual := fmt.Sprintf(`"%s-%d"`, tag, i)
		arg := actual
		if i%3 == 0 {
			arg = `"other"`
		}
		reqs = append(reqs, plugin.MatchRequest{Plugin: f, Key: "eq", Actual: json.RawMessage(actual), Argument: json.RawMessage(arg)})
		want = append(want, i%3 != 0)
	}
	return reqs, want
}

// checkOutcomes fails unless out holds want's verdicts on reqs, each
// failure naming its own item's actual value.
func checkOutcomes(t *testing.T, what string, reqs []plugin.MatchRequest, want []bool, out []plugin.MatchOutcome) {
	t.Helper()
	if len(out) != len(want) {
		t.Fatalf("%s: %d outcomes, want %d", what, len(out), len(want))
	}
	for i, o := range out {
		if o.Err != nil || o.Pass != want[i] || o.Plugin != "eq@1.0.0" {
			t.Fatalf("%s: item %d: %+v, want pass=%v", what, i, o, want[i])
		}
		if !o.Pass {
			var f struct{ Actual json.RawMessage }
			if err := json.Unmarshal(o.Failure, &f); err != nil || string(f.Actual) != string(reqs[i].Actual) {
				t.Fatalf("%s: item %d: failure %s is not about %s", what, i, o.Failure, reqs[i].Actual)
			}
		}
	}
}

// TestMatchIntoWritesTheCallersMemory: Host.MatchInto and
// Coalescer.MatchInto put the outcomes in the memory given when it has
// room, every outcome overwritten (a stale verdict left from the slice's
// last use would be a wrong pass), and in new memory when it has not; the
// coalescer's callers, joined in one flush, each get their own outcomes,
// which stay as they were while later flushes reuse the pooled slices.
func TestMatchIntoWritesTheCallersMemory(t *testing.T) {
	m := &countingMatcher{}
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": m}}
	h, _ := newTestHost(t, plugin.HostOptions{MaxBatchItems: 7}, p)
	f := foundFor(p)
	ctx := context.Background()

	reqs, want := eqRequests(f, "host", 40)
	buf := make([]plugin.MatchOutcome, 64)
	for i := range buf {
		// What a previous test left: all passed, with an error.
		buf[i] = plugin.MatchOutcome{Pass: true, Plugin: "stale", Failure: json.RawMessage(`{"stale":1}`)}
	}
	out := h.MatchInto(ctx, reqs, buf[:0])
	if &out[0] != &buf[0] {
		t.Error("Host.MatchInto did not write into the memory it was given")
	}
	checkOutcomes(t, "Host.MatchInto", reqs, want, out)
	if out := h.MatchInto(ctx, reqs, make([]plugin.MatchOutcome, 0, 3)); len(out) != 40 {
		t.Fatalf("Host.MatchInto with too little room: %d outcomes", len(out))
	} else {
		checkOutcomes(t, "Host.MatchInto, new memory", reqs, want, out)
	}

	c := plugin.NewCoalescer(h)
	defer c.Close()
	type caller struct {
		reqs []plugin.MatchRequest
		want []bool
		out  []plugin.MatchOutcome
	}
	var mu sync.Mutex
	var done []caller
	for round := range 20 {
		var wg sync.WaitGroup
		for k := range 8 {
			wg.Go(func() {
				reqs, want := eqRequests(f, fmt.Sprintf("r%d-c%d", round, k), 5+k*3)
				var dst []plugin.MatchOutcome
				if k%2 == 0 {
					dst = make([]plugin.MatchOutcome, len(reqs), len(reqs)+k)
					for i := range dst {
						dst[i] = plugin.MatchOutcome{Pass: true, Plugin: "stale"}
					}
				}
				out := c.MatchInto(ctx, reqs, dst[:0])
				if dst != nil && &out[0] != &dst[0] {
					t.Errorf("caller %d: the coalescer did not write into its memory", k)
				}
				mu.Lock()
				done = append(done, caller{reqs, want, out})
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	// Checked only now, after every later flush has reused the pooled
	// slices: a caller's outcomes must not be one of them.
	for i, d := range done {
		checkOutcomes(t, fmt.Sprintf("coalesced caller %d", i), d.reqs, d.want, d.out)
	}
}
