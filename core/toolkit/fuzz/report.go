package fuzz

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// TestID is the report id of a finding: the tool and the crash class,
// stable across runs and seeds.
func TestID(tool, kind string) string { return "fuzz/" + tool + "/" + kind }

// ShowArgs renders a case's arguments for people: the JSON sent, or what
// was left out.
func ShowArgs(raw json.RawMessage) string {
	if raw == nil {
		return "(no arguments field)"
	}
	s := string(raw)
	if len(s) > 200 {
		s = s[:200] + fmt.Sprintf("… (%d bytes)", len(raw))
	}
	return s
}

// Tests renders the run as report tests: per tool one failed test per
// finding (fuzz/<tool>/<class>, under the check fuzz/crashed or
// fuzz/timed-out), or one passed test (fuzz/<tool>) when every case was
// handled; skipped tools are skipped tests.
func (r *Report) Tests(red *redact.Redactor, repro func(tool string) string) []rpt.Test {
	var out []rpt.Test
	for _, tr := range r.Tools {
		name := tr.Tool.Name
		base := rpt.Test{Block: "fuzz", Server: toolkit.SuiteServerName, Tool: name}
		if tr.Skipped != "" {
			t := base
			t.ID, t.Name, t.Status = "fuzz/"+name, name, rpt.StatusSkipped
			t.Error = &rpt.Error{Kind: "not_called", Message: tr.Skipped}
			out = append(out, t)
			continue
		}
		if len(tr.Findings) == 0 {
			t := base
			t.ID, t.Name, t.Status = "fuzz/"+name, name, rpt.StatusPassed
			t.DurationMS = ms(tr.Duration)
			t.Assertions = []rpt.Assertion{{Target: "tools/call", Matcher: "fuzz", Status: rpt.StatusPassed,
				Message: fmt.Sprintf("%d cases, every one handled (a result, an isError result or -32602)", tr.Cases)}}
			out = append(out, t)
			continue
		}
		for _, f := range tr.Findings {
			t := base
			t.ID, t.Name, t.Status = TestID(name, f.Kind), name+": "+f.Kind, rpt.StatusFailed
			t.Check = toolkit.HealthCheck("fuzz", f.Minimal.Result.Verdict)
			for _, a := range f.Attempts {
				t.DurationMS += ms(a.Result.Duration)
			}
			labels := make([]string, 0, len(f.Attempts))
			for _, a := range f.Attempts {
				labels = append(labels, a.Case.Label)
			}
			sort.Strings(labels)
			if len(labels) > 12 {
				labels = append(labels[:12], fmt.Sprintf("… %d more", len(f.Attempts)-12))
			}
			v := f.Minimal.Result.Verdict
			failure, _ := json.Marshal(map[string]any{
				"expected": "a result, an isError result or a -32602 error",
				"actual":   red.String(toolkit.Describe(v)),
				"note": red.String(fmt.Sprintf("%d of %d cases (%s); smallest reproducer %q: arguments %s; rerun: %s",
					len(f.Attempts), tr.Cases, strings.Join(labels, ", "), f.Minimal.Case.Label, ShowArgs(f.Minimal.Case.Arguments), repro(name))),
			})
			t.Assertions = []rpt.Assertion{{Target: "tools/call " + ShowArgs(f.Minimal.Case.Arguments), Matcher: "fuzz", Status: rpt.StatusFailed,
				Message: red.String(toolkit.Describe(v)), Failure: failure, Check: t.Check}}
			if o := f.Minimal.Result.Outcome; o != nil {
				t.Frames = toolkit.Frames(o.Frames, red)
			}
			out = append(out, t)
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Table writes one line per tool and finding, and the totals.
func (r *Report) Table(w *strings.Builder) {
	fmt.Fprintf(w, "%-32s %6s %8s  %s\n", "TOOL", "CASES", "HANDLED", "FINDINGS")
	for _, tr := range r.Tools {
		if tr.Skipped != "" {
			fmt.Fprintf(w, "%-32s %6s %8s  %s\n", tr.Tool.Name, "-", "-", "skipped: may be destructive (--include-destructive)")
			continue
		}
		var fs []string
		for _, f := range tr.Findings {
			fs = append(fs, fmt.Sprintf("%s ×%d (e.g. %s)", f.Kind, len(f.Attempts), f.Minimal.Case.Label))
		}
		if len(fs) == 0 {
			fs = []string{"none"}
		}
		if tr.NotRun > 0 {
			fs = append(fs, fmt.Sprintf("%d cases not run after %d server deaths", tr.NotRun, MaxKills))
		}
		fmt.Fprintf(w, "%-32s %6d %8d  %s\n", tr.Tool.Name, tr.Cases, tr.Handled, strings.Join(fs, "; "))
	}
	fmt.Fprintf(w, "%d findings from %d calls (seed %d, %d runs per tool)", r.Findings(), r.Calls, r.Seed, r.Runs)
	if r.Restarts > 0 {
		fmt.Fprintf(w, "; server restarted %d time(s)", r.Restarts)
	}
	w.WriteString("\n")
}

// healthySchema accepts the envelope of a handled call: a result (isError
// or not) or a -32602 rejection.
var healthySchema = map[string]any{"anyOf": []any{
	map[string]any{"required": []any{"result"}},
	map[string]any{"required": []any{"error"}, "properties": map[string]any{"error": map[string]any{
		"required": []any{"code"}, "properties": map[string]any{"code": map[string]any{"const": -32602}}}}},
}}

// RegressionSuite turns the findings into tests that fail while the bug
// is there and pass once the tool handles the input (a timeout finding's
// test carries the fuzz timeout). A suite always sends an arguments
// object, so a finding seen only with null, missing or non-object
// arguments is written with the smallest object case of its class when
// there is one; otherwise no test could reproduce it, and it is returned
// in left instead (a test that cannot fail would be worse than none).
func (r *Report) RegressionSuite(timeout time.Duration) (tests []toolkit.SuiteTest, left []string) {
	for _, tr := range r.Tools {
		for _, f := range tr.Findings {
			pick := f.Minimal
			if !isObject(pick.Case.Arguments) {
				var objs []Attempt
				for _, a := range f.Attempts {
					if isObject(a.Case.Arguments) {
						objs = append(objs, a)
					}
				}
				if len(objs) == 0 {
					left = append(left, fmt.Sprintf("%s (%s)", TestID(tr.Tool.Name, f.Kind), f.Minimal.Case.Label))
					continue
				}
				pick = minimal(objs)
			}
			st := toolkit.SuiteTest{
				Name:      fmt.Sprintf("%s handles %s (was %s)", tr.Tool.Name, pick.Case.Label, f.Kind),
				Tool:      tr.Tool.Name,
				Arguments: pick.Case.Arguments,
				Expect:    []toolkit.Expectation{{Target: "", Matcher: map[string]any{"schema": healthySchema}}},
			}
			if f.Health == toolkit.TimedOut {
				st.TimeoutMS = int(timeout.Milliseconds())
			}
			tests = append(tests, st)
		}
	}
	return tests, left
}

func isObject(raw json.RawMessage) bool {
	return len(raw) > 0 && raw[0] == '{'
}
