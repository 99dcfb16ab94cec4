package pluginrpc

import (
	"runtime"
	"sync"
)

// parallel runs fn(i) for i in [0, n) on up to GOMAXPROCS goroutines, each
// taking a contiguous range so cheap items pay no per-item scheduling.
func parallel(n int, fn func(i int)) {
	parallelRanges(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			fn(i)
		}
	})
}

// parallelRanges is parallel handing each goroutine its whole range, so it
// can keep state (scratch buffers, the last matcher looked up) from one
// item to the next.
func parallelRanges(n int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		fn(0, n)
		return
	}
	if workers > n {
		workers = n
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for start := 0; start < n; start += chunk {
		end := min(start+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(start, end)
		}()
	}
	wg.Wait()
}
