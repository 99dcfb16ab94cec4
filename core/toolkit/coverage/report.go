package coverage

import (
	"fmt"
	"strings"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Tests renders the coverage as report tests: one per offering, passed
// when a test touches it and warned (a finding that does not fail the
// run) when none does; with a minimum (min >= 0), one gate test per kind
// the server offers, failed below the minimum.
func (r *Result) Tests(min float64) []rpt.Test {
	var out []rpt.Test
	for _, it := range r.Items {
		singular := strings.TrimSuffix(it.Kind, "s")
		t := rpt.Test{ID: "coverage/" + singular + "/" + it.Name, Name: singular + " " + it.Name, Block: "coverage", Server: "server"}
		if singular == "tool" {
			t.Tool = it.Name
		}
		a := rpt.Assertion{Target: it.Kind, Matcher: "coverage"}
		if len(it.Tests) > 0 {
			t.Status, a.Status = rpt.StatusPassed, rpt.StatusPassed
			a.Message = fmt.Sprintf("touched by %d test(s), first %s", len(it.Tests), it.Tests[0])
		} else {
			check := &rpt.Check{ID: "coverage/untested-" + singular, Title: "every " + singular + " the server offers is touched by a test", Severity: "SHOULD"}
			t.Status, a.Status = rpt.StatusWarned, rpt.StatusWarned
			t.Check, a.Check = check, check
			a.Message = "no test touches this " + singular
		}
		t.Assertions = []rpt.Assertion{a}
		out = append(out, t)
	}
	if min < 0 {
		return out
	}
	for _, k := range r.PerKind() {
		if k.Offered == 0 {
			continue
		}
		t := rpt.Test{ID: "coverage/min/" + k.Name, Name: fmt.Sprintf("%s coverage at least %g%%", k.Name, min), Block: "coverage", Server: "server"}
		a := rpt.Assertion{Target: k.Name, Matcher: "min", Message: k.String()}
		if k.Percent() >= min {
			t.Status, a.Status = rpt.StatusPassed, rpt.StatusPassed
		} else {
			check := &rpt.Check{ID: "coverage/min", Title: fmt.Sprintf("coverage of each kind reaches --min %g%%", min), Severity: "MUST"}
			t.Status, a.Status = rpt.StatusFailed, rpt.StatusFailed
			t.Check, a.Check = check, check
			a.Message = fmt.Sprintf("%s is below the minimum %g%%", k.String(), min)
		}
		t.Assertions = []rpt.Assertion{a}
		out = append(out, t)
	}
	return out
}

// Table writes the untested offerings and the percentages.
func (r *Result) Table(w *strings.Builder) {
	for _, it := range r.Items {
		if len(it.Tests) == 0 {
			fmt.Fprintf(w, "untested %-9s %s\n", strings.TrimSuffix(it.Kind, "s"), it.Name)
		}
	}
	var parts []string
	for _, k := range r.PerKind() {
		parts = append(parts, k.String())
	}
	fmt.Fprintf(w, "coverage: %s\n", strings.Join(parts, ", "))
}
