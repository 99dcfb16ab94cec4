package plugin

import (
	"os"
	"runtime/debug"
)

// TuneHostGC sets the garbage collector of a process that exchanges large
// batches with plugins, unless the user set GOGC or GOMEMLIMIT. Batches and
// responses make short-lived garbage in bursts; with the default target the
// collector runs many times per batch. A higher target with a soft memory
// limit keeps collections rare while the heap stays small, and collects
// harder only as the process nears the limit.
func TuneHostGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(160 << 20)
	}
}
