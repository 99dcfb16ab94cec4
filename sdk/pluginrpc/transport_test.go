package pluginrpc_test

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// goroutineID reads the calling goroutine's number from its stack header
// ("goroutine 42 [running]:"); the runtime never reuses a number.
func goroutineID(t *testing.T) uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf = bytes.TrimPrefix(buf, []byte("goroutine "))
	id, err := strconv.ParseUint(string(buf[:bytes.IndexByte(buf, ' ')]), 10, 64)
	if err != nil {
		t.Errorf("goroutine header %q: %v", buf, err)
	}
	return id
}

// TestCallsRunOnLongLivedGoroutines: a plugin's server runs its calls on a
// few goroutines kept for the next call, not on a fresh goroutine per call
// whose stack has to grow again through gRPC and the batch's decoding. A
// one-item batch is judged on the goroutine that serves the call, so the
// matcher sees which one that is.
func TestCallsRunOnLongLivedGoroutines(t *testing.T) {
	var mu sync.Mutex
	seen := map[uint64]bool{}
	m := sdk.MatcherFunc(func(_ context.Context, _ sdk.MatchInput) (sdk.MatchResult, error) {
		id := goroutineID(t)
		mu.Lock()
		seen[id] = true
		mu.Unlock()
		return sdk.Pass(), nil
	})
	h := plugintest.Matcher(t, &sdk.Plugin{Name: "workers", Version: "0.0.1", Matchers: map[string]sdk.Matcher{"m": m}})
	const calls = 40
	for range calls {
		h.MustPass(h.Match("m", "x", "x"))
	}
	// One call after another: a fresh goroutine per call would show 40
	// numbers; the server's workers are a handful.
	if len(seen) > 8 {
		t.Fatalf("%d calls ran on %d goroutines, want the server's few workers", calls, len(seen))
	}
}
