package plugin

import (
	"sync"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// chunkBuf holds the items and results of one batch call. A run sends a
// batch per thousand assertions; reusing the slices keeps the host's
// allocation rate, and with it its garbage collections, down while the
// plan's large heap is live.
type chunkBuf struct {
	items   []pluginrpc.MatchItem
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
	if cap(b.items) < n {
		b.items = make([]pluginrpc.MatchItem, n)
		b.results = make([]pluginrpc.MatchItemResult, n)
	}
	b.items, b.results = b.items[:n], b.results[:n]
	return b
}

// release clears the slices, so a pooled buffer keeps no request or answer
// alive, and returns b to the pool.
func (b *chunkBuf) release() {
	clear(b.items)
	clear(b.results)
	if cap(b.items) <= chunkBufKeptMax && chunkBufKept.Put(b) {
		return
	}
	chunkBufPool.Put(b)
}
