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

// rangeTask is one range of a parallelRanges call for a worker.
type rangeTask struct {
	fn        func(w, lo, hi int)
	w, lo, hi int
	wg        *sync.WaitGroup
}

// rangeWorkers are goroutines that live as long as the plugin and run
// the ranges parallelRanges hands out beyond the caller's own. A fresh
// goroutine per range started on a small stack and grew it again on
// every batch (a matcher building a diff goes deep): runtime.morestack
// and copystack were a few percent of the plugin's time per item.
var rangeWorkers struct {
	once  sync.Once
	tasks chan rangeTask
}

// startRangeWorkers starts GOMAXPROCS workers, the first time.
func startRangeWorkers() chan rangeTask {
	rangeWorkers.once.Do(func() {
		n := runtime.GOMAXPROCS(0)
		rangeWorkers.tasks = make(chan rangeTask)
		for range n {
			go func() {
				for t := range rangeWorkers.tasks {
					t.fn(t.w, t.lo, t.hi)
					t.wg.Done()
				}
			}()
		}
	})
	return rangeWorkers.tasks
}

// parallelRanges is parallel handing each goroutine its whole range, so it
// can keep state (scratch buffers, the last matcher looked up) from one
// item to the next. w numbers the ranges from 0, so a caller can keep
// per-range state across calls. Each range goes to a long-lived worker
// that is idle, or runs on a goroutine of its own when none is (another
// batch is being judged): a range never waits in a queue while a
// processor is free. The caller runs the last range itself: a gRPC
// handler runs on one of the server's long-lived stream workers
// (transport.go), whose stack stays grown like the range workers', and
// handing that range to a worker too cost a wake-up and a hand-off per
// batch while the caller only waited.
func parallelRanges(n int, fn func(w, lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		fn(0, 0, n)
		return
	}
	if workers > n {
		workers = n
	}
	tasks := startRangeWorkers()
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w, start := 0, 0; start < n; w, start = w+1, start+chunk {
		t := rangeTask{fn: fn, w: w, lo: start, hi: min(start+chunk, n), wg: &wg}
		if t.hi == n {
			t.fn(t.w, t.lo, t.hi)
			continue
		}
		wg.Add(1)
		select {
		case tasks <- t:
		default:
			go func() {
				defer wg.Done()
				t.fn(t.w, t.lo, t.hi)
			}()
		}
	}
	wg.Wait()
}
