package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// In Chromium, a graded run's page shows each grade under its test (score
// on the rubric's scale, threshold, grader, cost), a failed grade's gates,
// criteria, tree walk and jurors, the deferred eval as deferred with its
// reason, the trials table and the run's cost.
func TestEvalsInBrowser(t *testing.T) {
	browser := chromiumPath(t)
	run := reporttest.Evals()
	path := filepath.Join(t.TempDir(), "evals.html")
	if err := os.WriteFile(path, []byte(renderRun(t, run)), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := dumpDOM(t, browser, "file://"+path)
	if v, _ := attr(all(doc, byTag("html"))[0], "data-js"); v != "ready" {
		t.Fatal("the page script did not run")
	}
	if got := text(byID(t, doc, "costs")); got != "cost $0.0093 (suites/evals.yml $0.0086, suites/agents.yml $0.0007) · 21 judge calls, 4 cached · budget $0.50" {
		t.Errorf("costs = %q", got)
	}
	trials := text(byID(t, doc, "trials"))
	for _, want := range []string{"pass@3 100.0%, pass^3 0.0%, 1 flaky test", reporttest.EvalFlaky, "2/3", "flaky", "passed, failed, passed"} {
		if !strings.Contains(trials, want) {
			t.Errorf("trials section %q lacks %q", trials, want)
		}
	}
	list := tests(doc)
	if len(list) != len(run.Tests) {
		t.Fatalf("%d tests shown, want %d", len(list), len(run.Tests))
	}
	for i, want := range map[int][]string{
		0: {"score 4.2/5 (0.8)", "graders split", "jury: 3 jurors, 1 abstained", "juror 2 claude-sonnet-4-5: abstained", "Krippendorff's alpha 0.42"},
		1: {"guard tripped", `"status 503" NOT found in the candidate`, `criterion "mentions retry" (weight 1): skipped`},
		2: {`-> no (0.2, cached), leaf 0.4: vague about timing`},
		3: {"score 75% (0.75)", "panel of 2"},
		4: {"cell model claude-haiku-4-5 × prompt terse", "1 call, cached"},
		6: {"DEFERRED", "Reason", reporttest.DeferredMessage},
		7: {"unpriced"},
		8: {"metric plan_quality failed: score 0.3, threshold 0.6", "booked before checking availability"},
	} {
		got := text(list[i])
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("test %d (%s) lacks %q:\n%s", i+1, run.Tests[i].Name, w, got)
			}
		}
	}
	if n := all(doc, byTag("b")); len(n) != 0 {
		t.Errorf("hostile text in a grade injected %d <b> elements", len(n))
	}
	// The evals' scores make the score chart: 0.4; 0.5 and 0.55; 0.75;
	// 0.8 three times (the jury, two trials); 0.9 twice and 1.
	if got := strings.Join(values(byID(t, doc, "chart-scores"), "bar"), ","); got != "0,0,0,0,1,2,0,1,3,3" {
		t.Errorf("score chart bars %s", got)
	}
	if sum := text(all(list[0], byTag("summary"))[0]); !strings.Contains(sum, "score 4.2/5 (0.8)") {
		t.Errorf("the test line lacks its grade: %q", sum)
	}
}
