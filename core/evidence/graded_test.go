package evidence

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// TestGradedRunRoundTrip: the pack of a graded run (every eval form, a
// jury, judged agent metrics, costs) carries each grade and verifies
// against its report, which the report schema accepts.
func TestGradedRunRoundTrip(t *testing.T) {
	run := reporttest.Evals()
	raw, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, tc := range run.Tests {
		if tc.Eval != nil {
			want++
		}
		for _, a := range tc.Assertions {
			if a.Eval != nil {
				want++
			}
		}
	}
	p := Build(run, raw, "run.json", generator, time.Now())
	if len(p.Grades) != want || want == 0 || p.Costs == nil {
		t.Fatalf("grades %d, want %d; costs %+v", len(p.Grades), want, p.Costs)
	}
	if err := Sign(p, testKey(5)); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	res, err := Verify(b, VerifyOptions{Report: raw, ReportPath: "run.json"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || len(res.Checked) != 3 {
		t.Errorf("result = %+v", res)
	}
}
