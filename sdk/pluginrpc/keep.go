package pluginrpc

import "sync"

// KeepList is a small free list that, unlike sync.Pool, survives garbage
// collections. sync.Pool empties itself within two collections, and the
// host collects often while a run's large plan is live: the buffers of a
// batch (a few hundred kilobytes to a megabyte each) were then allocated,
// zeroed and faulted in again on the next batch. A KeepList keeps at most
// its capacity of values alive for good; anything beyond goes to the
// collector. A nil list keeps nothing: make one with NewKeepList.
type KeepList[T any] struct {
	mu   sync.Mutex
	free []T
}

// NewKeepList returns a list keeping up to n values.
func NewKeepList[T any](n int) *KeepList[T] {
	return &KeepList[T]{free: make([]T, 0, n)}
}

// Get returns a kept value, most recently put first (its memory is the
// likeliest to be in cache), and whether there was one.
func (k *KeepList[T]) Get() (T, bool) {
	var v T
	if k == nil {
		return v, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if n := len(k.free); n > 0 {
		v = k.free[n-1]
		var zero T
		k.free[n-1] = zero
		k.free = k.free[:n-1]
		return v, true
	}
	return v, false
}

// Put keeps v if there is room and reports whether it did; the caller
// hands a value it did not keep to the collector (or a sync.Pool).
func (k *KeepList[T]) Put(v T) bool {
	if k == nil {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.free) == cap(k.free) {
		return false
	}
	k.free = append(k.free, v)
	return true
}
