package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
)

// applyIDs narrows the plan to the tests whose id is one of ids (`run
// --id`, exact match; the agent reporter's repro commands use it), plus
// the tests whose captures they use. An id that names no test is an
// error, so a stale repro command says so instead of running nothing.
func applyIDs(p *plan.Plan, ids []string, stderr io.Writer) bool {
	if len(ids) == 0 {
		return true
	}
	known := map[string]bool{}
	for _, t := range p.Tests {
		known[t.ID] = true
	}
	var missing []string
	for _, id := range ids {
		if !known[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		fmt.Fprintf(stderr, "mcptest run: --id: no selected test has the id %s (mcptest run --list shows the ids)\n", strings.Join(quoteAll(missing), ", "))
		return false
	}
	p.Keep(func(t *plan.Test) bool { return slices.Contains(ids, t.ID) })
	return true
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}
