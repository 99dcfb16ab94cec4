package run

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/toolkit/intercept"
	"github.com/mcptest/mcptest/internal/safefile"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// runTrajectory judges a trajectories test: the intercept trace file is
// read as an agent trace and the expect entries judge its JSON form. A
// missing or malformed trace errors the test (the run could not judge
// it); a failed assertion fails it.
func (r *runner) runTrajectory(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	tt := t.Trajectory
	errored := func(kind string, err error) rpt.Test {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: kind, Message: r.opts.Redact.String(err.Error())}
		return res
	}
	data, err := safefile.ReadFile(tt.TracePath, intercept.TraceLimit)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("trace %s (line %d of %s) does not exist; write it with mcptest intercept -o", tt.Trace, tt.Pos.Line, t.Suite.File)
		}
		return errored("trace", err)
	}
	trace, err := intercept.Trajectory(tt.Trace, data)
	if err != nil {
		return errored("trace", err)
	}
	doc, err := trace.JSON()
	if err != nil {
		return errored("trace", fmt.Errorf("encode the trace: %w", err))
	}
	doc = r.opts.Redact.Bytes(doc)
	res.Assertions = r.judge.Test(ctx, t, doc)
	assert.Verdict(t, &res, nil)
	if res.Status != rpt.StatusPassed {
		res.Response = r.truncate(doc)
	}
	return res
}
