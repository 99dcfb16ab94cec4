package compliance

import (
	"context"
	"errors"
	"fmt"
	"maps"
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

// T05 and U03 call the same tools with the same arguments (U03 adds a
// progress token). A tool that outlasted its budget in T05 would only
// make U03 wait out the budget again, and leave it a call it must cancel,
// which costs its server (a session with a request unanswered is never
// handed on). So when both run, U03 starts after T05 has called its tools
// and sets aside, unjudged, the tools that were slow there.

// slowTools is what T05 learned about slow tools, for U03.
type slowTools struct {
	done  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	names map[string]bool
}

func newSlowTools() *slowTools {
	return &slowTools{done: make(chan struct{}), names: map[string]bool{}}
}

// add records a tool that did not answer within its budget.
func (st *slowTools) add(name string) {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.names[name] = true
}

// finish says T05 has called every tool it will; safe to call again.
func (st *slowTools) finish() {
	if st != nil {
		st.once.Do(func() { close(st.done) })
	}
}

// wait returns the tools T05 found slow once it has called them, or nil
// without T05 (or when ctx ends first).
func (st *slowTools) wait(ctx context.Context) map[string]bool {
	if st == nil {
		return nil
	}
	select {
	case <-st.done:
	case <-ctx.Done():
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return maps.Clone(st.names)
}

// noteSlowInT05 records that U03 did not call a tool T05 found slow.
func noteSlowInT05(e *Env, t toolInfo) {
	budget := min(toolCallBudget, e.opts.Timeout)
	e.add(Finding{Name: "tool " + t.Name, Status: NotApplicable,
		Note: fmt.Sprintf("no answer within %s when T05 called it with the same arguments, so it is not called again and not judged (slowness is not a compliance problem)", budget)})
}
