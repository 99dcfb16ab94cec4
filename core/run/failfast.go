package run

import (
	"fmt"
	"sync/atomic"

	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// KindFailFast is the error kind of the tests --fail-fast or
// --max-failures left unstarted.
const KindFailFast = rpt.ErrorKindFailFast

// failFast stops a run from starting new tests once MaxFailures tests have
// failed or errored (pytest's -x and --maxfail). Tests already under way
// finish and keep their verdicts: cutting them short would turn a verdict
// into noise. Servers are still closed the ordinary way at the end.
type failFast struct {
	max   int
	count atomic.Int64
}

// note counts a finished test and reports whether the run should stop.
func (f *failFast) note(res *rpt.Test) {
	if f.max <= 0 {
		return
	}
	if res.Status == rpt.StatusFailed || res.Status == rpt.StatusErrored {
		f.count.Add(1)
	}
}

// stopped reports whether the limit has been reached.
func (f *failFast) stopped() bool {
	return f.max > 0 && f.count.Load() >= int64(f.max)
}

// notRun is the report of a test the limit kept from starting.
func (f *failFast) notRun(t *plan.Test) rpt.Test {
	why := "not started: the run stopped after the first failure (--fail-fast)"
	if f.max > 1 {
		why = fmt.Sprintf("not started: the run stopped after %d failures (--max-failures %d)", f.max, f.max)
	}
	res := skipped(t, why)
	res.Error.Kind = KindFailFast
	return res
}
