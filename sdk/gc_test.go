package sdk

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestPrepareRuntimeLeavesGCAloneByDefault: the SDK must not change a
// plugin's GC settings unless the plugin opts in with TuneGC.
func TestPrepareRuntimeLeavesGCAloneByDefault(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	oldPct := debug.SetGCPercent(123)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPct)
		debug.SetMemoryLimit(oldLimit)
	}()

	prepareRuntime(&Plugin{Name: "plain"})
	if got := debug.SetGCPercent(123); got != 123 {
		t.Errorf("GC percent changed to %d without TuneGC", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit changed to %d without TuneGC", got)
	}

	prepareRuntime(&Plugin{Name: "tuned", TuneGC: true})
	if got := debug.SetGCPercent(123); got != 400 {
		t.Errorf("GC percent = %d with TuneGC, want 400", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != 256<<20 {
		t.Errorf("memory limit = %d with TuneGC, want %d", got, 256<<20)
	}
}

// TestPrepareRuntimeHonoursGOGC: an explicit GOGC wins over TuneGC.
func TestPrepareRuntimeHonoursGOGC(t *testing.T) {
	t.Setenv("GOGC", "100")
	t.Setenv("GOMEMLIMIT", "1GiB")
	oldPct := debug.SetGCPercent(77)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPct)
		debug.SetMemoryLimit(oldLimit)
	}()
	prepareRuntime(&Plugin{Name: "tuned", TuneGC: true})
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent = %d, want the environment's setting left alone", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit changed to %d despite GOMEMLIMIT", got)
	}
}
