// Package audit calls every tool of a server once with valid arguments
// built from its input schema and classifies how each one coped: healthy
// (a result, an isError result, or -32602 for arguments it rejects),
// crashed (another JSON-RPC error, or the server or transport dying) or
// timed out.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/argsgen"
)

// Options tune an audit.
type Options struct {
	// Timeout bounds each call.
	Timeout time.Duration
	// Jobs is how many calls are in flight at once.
	Jobs int
	// IncludeDestructive calls tools that may be destructive too.
	IncludeDestructive bool
	// Tools, when set, limits the audit to these tool names.
	Tools []string
}

// Entry is the audit of one tool.
type Entry struct {
	Tool toolkit.Tool
	// Arguments are the arguments sent (nil for a skipped tool).
	Arguments json.RawMessage
	// Skipped says why the tool was not called, or is empty.
	Skipped string
	Result  toolkit.Result
}

// Report is an audit's outcome.
type Report struct {
	Entries []Entry
	// Healthy, Crashed, TimedOut and Skipped count the tools.
	Healthy, Crashed, TimedOut, Skipped int
	// Restarts is how often the server had to be restarted.
	Restarts int
}

// Score is the share of called tools that were healthy, in percent (100
// when no tool was called).
func (r *Report) Score() float64 {
	called := r.Healthy + r.Crashed + r.TimedOut
	if called == 0 {
		return 100
	}
	return 100 * float64(r.Healthy) / float64(called)
}

// SkipReason is the Skipped text of a tool left out as possibly
// destructive.
const SkipReason = "may be destructive (annotations do not say readOnlyHint: true or destructiveHint: false); pass --include-destructive to call it"

// Run audits the tools of the server c talks to; tools is its listing.
func Run(ctx context.Context, c *toolkit.Caller, tools []toolkit.Tool, opts Options) (*Report, error) {
	only := map[string]bool{}
	for _, n := range opts.Tools {
		only[n] = true
	}
	rep := &Report{}
	var calls []toolkit.Call
	var idx []int
	for _, t := range tools {
		if len(only) > 0 && !only[t.Name] {
			continue
		}
		e := Entry{Tool: t}
		if t.MayBeDestructive() && !opts.IncludeDestructive {
			e.Skipped = SkipReason
			rep.Skipped++
			rep.Entries = append(rep.Entries, e)
			continue
		}
		schema, err := argsgen.Parse(t.InputSchema)
		if err != nil {
			schema = argsgen.Schema{}
		}
		e.Arguments, _ = json.Marshal(argsgen.Valid(schema))
		rep.Entries = append(rep.Entries, e)
		idx = append(idx, len(rep.Entries)-1)
		calls = append(calls, toolkit.Call{Tool: t.Name, Arguments: e.Arguments})
	}
	for n := range only {
		if !hasTool(tools, n) {
			return nil, fmt.Errorf("--tool %s: the server lists no such tool", n)
		}
	}
	results, err := c.CallAll(ctx, calls, opts.Jobs)
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		rep.Entries[idx[i]].Result = r
		switch r.Verdict.Health {
		case toolkit.Healthy:
			rep.Healthy++
		case toolkit.Crashed:
			rep.Crashed++
		case toolkit.TimedOut:
			rep.TimedOut++
		}
	}
	sort.SliceStable(rep.Entries, func(i, j int) bool { return rep.Entries[i].Tool.Name < rep.Entries[j].Tool.Name })
	rep.Restarts = c.Restarts()
	return rep, nil
}

func hasTool(tools []toolkit.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
