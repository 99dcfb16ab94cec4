package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// A graded run satisfies the report schema and reads back unchanged:
// grades, judged metrics, trials and costs all survive.
func TestEvalsValidateAndRoundTrip(t *testing.T) {
	run := reporttest.Evals()
	out := renderJSON(t, run)
	validate(t, out)
	var back report.Run
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(run)
	got, _ := json.Marshal(&back)
	if !bytes.Equal(got, want) {
		t.Errorf("round trip changed the report:\n got %s\nwant %s", got, want)
	}
	if back.Costs == nil || back.Trials == nil || back.Tests[0].Eval == nil || back.Tests[0].Eval.Jury.Alpha == nil {
		t.Error("round trip lost the grades, costs or trials")
	}
}
