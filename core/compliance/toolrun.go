package compliance

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// toolCallBudget bounds one tool call made by a check. Some safe tools
// are slow by design (server-everything's long-running operation takes
// 10 s); how long a tool works is not a compliance question, so a call
// that outlasts the budget is cancelled and the tool is not applicable
// to the check, with that reason, instead of holding the run up.
const toolCallBudget = 2 * time.Second

// toolOutcome is what one bounded tool call gave.
type toolOutcome struct {
	tool  toolInfo
	reply *Reply
	err   error
	// slow is set when the tool did not answer within the budget.
	slow bool
}

// toolArgs gives the arguments and the request _meta (nil for none) of
// the call to the i-th tool.
type toolArgs func(i int, t toolInfo) (args, meta map[string]any)

// callTools calls every tool at once on s and returns the outcomes in the
// order of tools. JSON-RPC lets a client keep many requests in flight on
// one connection, and the tools a check calls only read, so the calls
// share no state: the check waits for the slowest call (at most the
// budget) rather than for the sum of them.
func callTools(ctx context.Context, s *Session, tools []toolInfo, argsOf toolArgs) []toolOutcome {
	out := make([]toolOutcome, len(tools))
	var wg sync.WaitGroup
	for i, t := range tools {
		args, meta := argsOf(i, t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = callToolBounded(ctx, s, t, args, meta)
		}()
	}
	wg.Wait()
	return out
}

// callToolBounded calls one tool and waits at most the budget (or the
// run's --timeout, when shorter). A call that runs out of time is
// cancelled with notifications/cancelled, so the server can stop working
// on it.
func callToolBounded(ctx context.Context, s *Session, t toolInfo, args, meta map[string]any) toolOutcome {
	budget := min(toolCallBudget, s.env.opts.Timeout)
	params := map[string]any{"name": t.Name, "arguments": args}
	if meta != nil {
		params["_meta"] = meta
	}
	p := s.withMeta(params)
	id := s.newID()
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	match := func(m *probe.Message) bool { return m.IsResponse() && m.HasID(id) }
	o := toolOutcome{tool: t}
	hr, err := s.Send(cctx, probe.Request(id, "tools/call", p), "tools/call", p, match)
	var m *probe.Message
	if err == nil {
		m, err = s.Wait(cctx, budget, match)
	}
	o.reply, o.err = &Reply{Msg: m, HTTP: hr}, err
	if err != nil && ctx.Err() == nil && (errors.Is(err, errWaitTimedOut) || errors.Is(cctx.Err(), context.DeadlineExceeded)) {
		o.slow = true
		cp := s.withMeta(map[string]any{"requestId": id, "reason": "mcptest compliance probe: the call outlasted its budget"})
		nctx, ncancel := context.WithTimeout(context.Background(), budget)
		_, _ = s.Notify(nctx, "notifications/cancelled", cp)
		ncancel()
	}
	return o
}

// noteSlow records that a slow tool was not judged: a not-applicable
// finding, shown as a skipped assertion with the reason.
func noteSlow(e *Env, o toolOutcome) {
	budget := min(toolCallBudget, e.opts.Timeout)
	e.add(Finding{Name: "tool " + o.tool.Name, Status: NotApplicable,
		Note: fmt.Sprintf("no answer within %s, so the call was cancelled and the tool is not judged (slowness is not a compliance problem)", budget)})
}
