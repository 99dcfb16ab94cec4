package slicepool

import (
	"math/bits"
	"sync"
)

// The capacities pooled: powers of two from 1<<minPoolClass to
// 1<<maxPoolClass elements. Larger slices are left to the collector, so
// one huge test does not pin its slice for the rest of the run.
const (
	minPoolClass = 6
	maxPoolClass = 12
)

// Pool recycles slices of T by capacity class. The zero Pool is ready to
// use.
type Pool[T any] struct {
	classes [maxPoolClass - minPoolClass + 1]sync.Pool // of *[]T
}

// poolClass returns the class of the smallest pooled capacity holding n
// elements; above maxPoolClass, none is pooled.
func poolClass(n int) int {
	return max(minPoolClass, bits.Len(uint(max(n, 1)-1)))
}

// Get returns an empty slice with room for n elements; its spare capacity
// is zeroed.
func (p *Pool[T]) Get(n int) []T {
	k := poolClass(n)
	if k > maxPoolClass {
		return make([]T, 0, n)
	}
	if s, ok := p.classes[k-minPoolClass].Get().(*[]T); ok {
		return (*s)[:0]
	}
	return make([]T, 0, 1<<k)
}

// Put gives s back once nothing reads it. It is cleared first, so a pooled
// slice keeps no response value alive; a slice Get did not make (its
// capacity is not a pooled one) is left to the collector.
func (p *Pool[T]) Put(s []T) {
	k := poolClass(cap(s))
	if k > maxPoolClass || cap(s) != 1<<k {
		return
	}
	s = s[:cap(s)]
	clear(s)
	s = s[:0]
	p.classes[k-minPoolClass].Put(&s)
}
