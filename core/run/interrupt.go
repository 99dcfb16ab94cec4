package run

import (
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// KindInterrupted is the error kind of the tests an interrupt skipped.
const KindInterrupted = rpt.ErrorKindInterrupted

// Interrupted runs. A test not begun when the run is interrupted is
// skipped ("run interrupted before the test started", runBatch); a test
// the interrupt cut short is skipped as well, because its error says
// nothing about the server: the call was abandoned, not failed. A test
// that reached its verdict before the interrupt keeps it.

// cutShort returns the report of a test that was under way when the run
// was interrupted. An errored verdict is the interrupt's doing and becomes
// a skip that keeps the original message (and the wire, duration and
// assertions); a passed or failed verdict was reached and stays.
func cutShort(res rpt.Test) rpt.Test {
	if res.Status != rpt.StatusErrored {
		return res
	}
	msg := "run interrupted while the test ran"
	if res.Error != nil && res.Error.Message != "" {
		msg += " (" + res.Error.Message + ")"
	}
	res.Status = rpt.StatusSkipped
	res.Error = &rpt.Error{Kind: KindInterrupted, Message: msg}
	return res
}

// notStarted is the report of a test the interrupt came before.
func notStarted(t *plan.Test) rpt.Test {
	res := skipped(t, "run interrupted before the test started")
	res.Error.Kind = KindInterrupted
	return res
}
