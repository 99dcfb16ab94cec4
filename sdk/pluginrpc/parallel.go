package pluginrpc

import (
	"runtime"
	"sync"
)

// parallel runs fn(i) for i in [0, n) on up to GOMAXPROCS goroutines, each
// taking a contiguous range so cheap items pay no per-item scheduling.
func parallel(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		for i := 0; i < n; i++ {
			fn(i)
		}
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
			for i := start; i < end; i++ {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
