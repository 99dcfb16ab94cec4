// Package fuzz sends each tool schema-driven invalid and edge inputs
// (argsgen.Cases) and groups what went wrong into findings: one per tool
// and crash class (a JSON-RPC error code other than -32602, the server
// exiting, the transport failing, a timeout), each with the smallest
// arguments that reproduce it.
package fuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/argsgen"
)

// Options tune a fuzz run.
type Options struct {
	// Seed makes the choice of cases and the random mutations
	// reproducible.
	Seed uint64
	// Runs is how many cases each tool gets.
	Runs int
	// Timeout bounds each call.
	Timeout time.Duration
	// Jobs is how many calls are in flight at once.
	Jobs int
	// IncludeDestructive fuzzes tools that may be destructive too.
	IncludeDestructive bool
	// Tools, when set, limits the run to these tool names.
	Tools []string
}

// Attempt is one case and what it produced.
type Attempt struct {
	Case   argsgen.Case
	Result toolkit.Result
}

// Finding is one crash class of one tool.
type Finding struct {
	Tool string
	// Kind is the crash class (toolkit.Verdict.Kind).
	Kind   string
	Health toolkit.Health
	// Attempts are the cases of this class, in case order.
	Attempts []Attempt
	// Minimal is the attempt with the smallest arguments.
	Minimal Attempt
}

// ToolReport is what fuzzing one tool found.
type ToolReport struct {
	Tool toolkit.Tool
	// Skipped says why the tool was not fuzzed, or is empty.
	Skipped string
	Cases   int
	Handled int
	// NotRun counts cases left out after the tool killed the server
	// MaxKills times.
	NotRun   int
	Findings []Finding
	Duration time.Duration
}

// Report is a fuzz run's outcome, tools in name order.
type Report struct {
	Tools    []ToolReport
	Seed     uint64
	Runs     int
	Calls    int
	Restarts int
}

// Findings counts the findings of every tool.
func (r *Report) Findings() int {
	n := 0
	for _, t := range r.Tools {
		n += len(t.Findings)
	}
	return n
}

// SkipReason is the Skipped text of a tool left out as possibly
// destructive.
const SkipReason = "may be destructive (annotations do not say readOnlyHint: true or destructiveHint: false); pass --include-destructive to fuzz it"

// Run fuzzes the tools of the server c talks to.
func Run(ctx context.Context, c *toolkit.Caller, tools []toolkit.Tool, opts Options) (*Report, error) {
	only := map[string]bool{}
	for _, n := range opts.Tools {
		only[n] = true
	}
	for n := range only {
		found := false
		for _, t := range tools {
			found = found || t.Name == n
		}
		if !found {
			return nil, fmt.Errorf("--tool %s: the server lists no such tool", n)
		}
	}
	rep := &Report{Seed: opts.Seed, Runs: opts.Runs}
	for _, t := range tools {
		if len(only) > 0 && !only[t.Name] {
			continue
		}
		tr := ToolReport{Tool: t}
		if t.MayBeDestructive() && !opts.IncludeDestructive {
			tr.Skipped = SkipReason
			rep.Tools = append(rep.Tools, tr)
			continue
		}
		if err := fuzzTool(ctx, c, &tr, opts, rep); err != nil {
			return nil, err
		}
		rep.Tools = append(rep.Tools, tr)
	}
	sort.SliceStable(rep.Tools, func(i, j int) bool { return rep.Tools[i].Tool.Name < rep.Tools[j].Tool.Name })
	rep.Restarts = c.Restarts()
	return rep, nil
}

// MaxKills is how often one tool may kill the server before its remaining
// cases are left out: each kill costs a server start, and the class is
// known after the first.
const MaxKills = 3

// fuzzTool runs one tool's cases, a chunk of calls at a time so that a tool
// that keeps killing the server is stopped after MaxKills.
func fuzzTool(ctx context.Context, c *toolkit.Caller, tr *ToolReport, opts Options, rep *Report) error {
	schema, err := argsgen.Parse(tr.Tool.InputSchema)
	if err != nil {
		schema = argsgen.Schema{}
	}
	cases := argsgen.Cases(schema, opts.Seed, opts.Runs)
	tr.Cases = len(cases)
	chunk := 2 * max(opts.Jobs, 1)
	byKind := map[string]*Finding{}
	var kinds []string
	kills := 0
	for from := 0; from < len(cases) && kills < MaxKills; from += chunk {
		to := min(from+chunk, len(cases))
		calls := make([]toolkit.Call, 0, to-from)
		for _, k := range cases[from:to] {
			calls = append(calls, toolkit.Call{Tool: tr.Tool.Name, Arguments: k.Arguments})
		}
		results, err := c.CallAll(ctx, calls, opts.Jobs)
		if err != nil {
			return err
		}
		rep.Calls += len(calls)
		for i, r := range results {
			tr.Duration += r.Duration
			if r.Verdict.Health == toolkit.Healthy {
				tr.Handled++
				continue
			}
			if r.Verdict.Fatal() {
				kills++
			}
			f, ok := byKind[r.Verdict.Kind]
			if !ok {
				f = &Finding{Tool: tr.Tool.Name, Kind: r.Verdict.Kind, Health: r.Verdict.Health}
				byKind[r.Verdict.Kind] = f
				kinds = append(kinds, r.Verdict.Kind)
			}
			f.Attempts = append(f.Attempts, Attempt{Case: cases[from+i], Result: r})
		}
		if kills >= MaxKills {
			tr.NotRun = len(cases) - to
		}
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		f := byKind[k]
		f.Minimal = minimal(f.Attempts)
		tr.Findings = append(tr.Findings, *f)
	}
	return nil
}

// minimal picks the attempt with the shortest arguments; the structural
// cases (null, missing) count as the shortest of all, and ties go to the
// earlier case, so the choice is stable.
func minimal(as []Attempt) Attempt {
	best := as[0]
	for _, a := range as[1:] {
		if size(a.Case.Arguments) < size(best.Case.Arguments) {
			best = a
		}
	}
	return best
}

func size(raw json.RawMessage) int {
	if raw == nil {
		return 0
	}
	if string(raw) == "null" {
		return 1
	}
	return len(raw) + 1
}
