package pluginrpc

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestParallelRangesCoverEachItemOnce: whether a range goes to an idle
// worker, a goroutine of its own or the caller, every index is visited
// exactly once and the range numbers are distinct, also while several
// batches are judged at once (no worker idle).
func TestParallelRangesCoverEachItemOnce(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range []int{0, 1, 63, 64, 65, 1000, 4097} {
				seen := make([]atomic.Int32, n)
				var ranges sync.Map
				parallelRanges(n, func(w, lo, hi int) {
					if _, dup := ranges.LoadOrStore(w, true); dup {
						t.Errorf("goroutine %d, n %d: range number %d used twice", g, n, w)
					}
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Errorf("goroutine %d, n %d: index %d visited %d times", g, n, i, c)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
