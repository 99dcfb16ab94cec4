package pluginrpc

import (
	"runtime"
	"sync"
)

// parallel runs fn(i) for i in [0, n) on up to GOMAXPROCS goroutines, each
// taking a contiguous range so cheap items pay no per-item scheduling.
func parallel(n int, fn func(i int)) {
	parallelRanges(n, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			fn(i)
		}
	})
}

// parallelRanges is parallel handing each goroutine its whole range, so it
// can keep state (scratch buffers, the last matcher looked up) from one
// item to the next. w numbers the goroutines from 0, so a caller can keep
// per-goroutine state across calls.
func parallelRanges(n int, fn func(w, lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		fn(0, 0, n)
		return
	}
	if workers > n {
		workers = n
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w, start := 0, 0; start < n; w, start = w+1, start+chunk {
		end := min(start+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, start, end)
		}()
	}
	wg.Wait()
}
