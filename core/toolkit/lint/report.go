package lint

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Tests renders the lint as report tests: one per finding (failed for a
// MUST rule, warned for SHOULD and MAY, failed too with strict), and one
// passed test per definition without findings. Each finding carries its
// rule as the check, so SARIF lists the rules and code scanning shows
// them.
func (r *Result) Tests(red *redact.Redactor, strict bool) []rpt.Test {
	var out []rpt.Test
	seen := map[string]int{}
	unique := func(id string) string {
		// Two definitions of one name (itself a finding) would otherwise
		// share their findings' ids.
		seen[id]++
		if n := seen[id]; n > 1 {
			return fmt.Sprintf("%s#%d", id, n)
		}
		return id
	}
	for i, f := range r.Findings {
		check := &rpt.Check{ID: f.Rule.ID, Title: f.Rule.Title, Severity: string(f.Rule.Level)}
		status := rpt.StatusWarned
		if f.Rule.Level == Must || strict {
			status = rpt.StatusFailed
		}
		failure, _ := json.Marshal(map[string]any{"path": f.Path, "note": red.String(f.Message)})
		t := rpt.Test{
			ID: unique(f.ID(r.Parts[i])), Name: fmt.Sprintf("%s %s: %s", f.Kind, red.String(f.Name), f.Rule.ID), Block: "lint", Server: "server",
			Status: status, Check: check,
			Assertions: []rpt.Assertion{{Target: f.Path, Matcher: string(f.Rule.Level), Status: status, Message: red.String(f.Message), Failure: failure, Check: check}},
		}
		if f.Kind == "tool" {
			t.Tool = f.Name
		}
		out = append(out, t)
	}
	for _, c := range r.Clean {
		kind, name, _ := strings.Cut(c, "/")
		t := rpt.Test{ID: unique("lint/" + c), Name: kind + " " + red.String(name), Block: "lint", Server: "server", Status: rpt.StatusPassed,
			Assertions: []rpt.Assertion{{Target: kind, Matcher: "lint", Status: rpt.StatusPassed, Message: "no rule broken"}}}
		if kind == "tool" {
			t.Tool = name
		}
		out = append(out, t)
	}
	return out
}

// Table writes one line per finding and the totals per level.
func (r *Result) Table(w *strings.Builder) {
	count := map[Level]int{}
	for _, f := range r.Findings {
		count[f.Rule.Level]++
		fmt.Fprintf(w, "%-6s %-34s %s: %s\n", f.Rule.Level, f.Rule.ID, f.Path, f.Message)
	}
	fmt.Fprintf(w, "lint: %d MUST, %d SHOULD, %d MAY finding(s); %d definition(s) clean\n", count[Must], count[Should], count[May], len(r.Clean))
}
