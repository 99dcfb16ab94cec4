package main

import (
	"os"
	"runtime/debug"
)

// suiteHeapFactor is about how many bytes of heap a loaded and planned
// suite keeps per byte of YAML (a 50 MB suite of 330,000 tests: 250 MB of
// typed tests and 150 MB of plan), plus a little room for the loading
// garbage. At 6 the collector ran back to back while the plan was built;
// 7 cost 7 MB of peak and saved a sixth of the CPU (bench/validate_test.go).
const suiteHeapFactor = 7

// largeSuiteBytes is the total suite size from which the memory limit is
// raised; below it the limit plugin.TuneHostGC sets is ample.
const largeSuiteBytes = 8 << 20

// fitMemoryLimit raises the soft memory limit for large suites, unless the
// user set GOMEMLIMIT. plugin.TuneHostGC sets a limit sized for running
// tests; a suite whose loaded form alone exceeds it would make the
// collector run without pause (the runtime lets it take half the CPU),
// which made validating a 50 MB suite spend a third of its time in GC.
func fitMemoryLimit(files []string) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var total int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil && info.Mode().IsRegular() {
			total += info.Size()
		}
	}
	if total < largeSuiteBytes {
		return
	}
	want := debug.SetMemoryLimit(-1) + suiteHeapFactor*total
	debug.SetMemoryLimit(want)
}
