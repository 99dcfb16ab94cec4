package plugin

import (
	"encoding/json"
	"sync"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// chunkBuf holds the results of one batch call (its items are encoded
// from the requests where they are: chunkSource). A run sends a batch per
// thousand assertions; reusing the slice keeps the host's allocation rate,
// and with it its garbage collections, down while the plan's large heap is
// live.
type chunkBuf struct {
	results []pluginrpc.MatchItemResult
}

var chunkBufPool = sync.Pool{New: func() any { return new(chunkBuf) }}

// chunkBufKept keeps the buffers of the calls in flight across
// collections, which the host runs often while a large plan is live and
// which empty chunkBufPool; the pool takes what does not fit.
var chunkBufKept = pluginrpc.NewKeepList[*chunkBuf](8)

// chunkBufKeptMax is the most items of a buffer chunkBufKept holds for
// good (the host's default batch).
const chunkBufKeptMax = 1000

// getChunkBuf returns a buffer whose slices have n elements.
func getChunkBuf(n int) *chunkBuf {
	b, ok := chunkBufKept.Get()
	if !ok {
		b = chunkBufPool.Get().(*chunkBuf)
	}
	if cap(b.results) < n {
		b.results = make([]pluginrpc.MatchItemResult, n)
	}
	b.results = b.results[:n]
	return b
}

// release clears the slice, so a pooled buffer keeps no answer alive, and
// returns b to the pool.
func (b *chunkBuf) release() {
	clear(b.results)
	if cap(b.results) <= chunkBufKeptMax && chunkBufKept.Put(b) {
		return
	}
	chunkBufPool.Put(b)
}

// chunkSource gives a chunk's requests to the encoder as they are
// (pluginrpc.ItemSource); item j is reqs[chunk[j]].
type chunkSource struct {
	reqs  []MatchRequest
	chunk []int
}

// Len is the number of items.
func (c chunkSource) Len() int { return len(c.chunk) }

// Item returns item j's fields.
func (c chunkSource) Item(j int) (string, json.RawMessage, json.RawMessage, *sdk.MatchOptions) {
	r := &c.reqs[c.chunk[j]]
	return r.Key, r.Actual, r.Argument, &r.Options
}

// chunkID is the id of item j of a chunk: its position.
func chunkID(j int) uint64 { return uint64(j) }
