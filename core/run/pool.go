package run

import (
	"math/bits"
	"sync"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/score"
)

// Judging needs a few slices per test that are dropped as soon as the test
// is judged: the plugin requests (the largest allocation per assertion),
// the coalescer's joined batches and the scoring entries. They are
// recycled, because with a run's results held in memory the collector has
// a large heap to mark, and each allocation saved is a share of a
// collection saved.
var (
	requestPool slicePool[plugin.MatchRequest]
	entryPool   slicePool[score.Entry]
)

// The capacities pooled: powers of two from 1<<minPoolClass to
// 1<<maxPoolClass elements. Larger slices are left to the collector, so
// one huge test does not pin its slice for the rest of the run.
const (
	minPoolClass = 6
	maxPoolClass = 12
)

// slicePool recycles slices of T by capacity class.
type slicePool[T any] struct {
	classes [maxPoolClass - minPoolClass + 1]sync.Pool // of *[]T
}

// poolClass returns the class of the smallest pooled capacity holding n
// elements; above maxPoolClass, none is pooled.
func poolClass(n int) int {
	return max(minPoolClass, bits.Len(uint(max(n, 1)-1)))
}

// get returns an empty slice with room for n elements; its spare capacity
// is zeroed.
func (p *slicePool[T]) get(n int) []T {
	k := poolClass(n)
	if k > maxPoolClass {
		return make([]T, 0, n)
	}
	if s, ok := p.classes[k-minPoolClass].Get().(*[]T); ok {
		return (*s)[:0]
	}
	return make([]T, 0, 1<<k)
}

// put gives s back once nothing reads it. It is cleared first, so a pooled
// slice keeps no response value alive; a slice get did not make (its
// capacity is not a pooled one) is left to the collector.
func (p *slicePool[T]) put(s []T) {
	k := poolClass(cap(s))
	if k > maxPoolClass || cap(s) != 1<<k {
		return
	}
	s = s[:cap(s)]
	clear(s)
	s = s[:0]
	p.classes[k-minPoolClass].Put(&s)
}
