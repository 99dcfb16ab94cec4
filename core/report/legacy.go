package report

import (
	"encoding/json"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Reports written before the warned status existed recorded a compliance
// test that broke only SHOULD requirements as failed with check severity
// "SHOULD", and counted it in summary.failed; the run still exited 0 for
// it. upgradeWarnings turns such tests into warned ones so every reporter
// grades them as the exit code did.
//
// A report carrying summary.warned is new: its failed SHOULD tests are
// real failures (compliance run --strict) and stay. An old report whose
// exit code 1 is explained only by such tests was written with --strict
// too, and stays as it is.
func upgradeWarnings(run *rpt.Run, raw []byte) {
	var head struct {
		Summary map[string]json.RawMessage `json:"summary"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return
	}
	if _, ok := head.Summary["warned"]; ok {
		return
	}
	var legacy []int
	otherFailures := false
	for i := range run.Tests {
		t := &run.Tests[i]
		if t.Status != rpt.StatusFailed {
			continue
		}
		if t.Check != nil && t.Check.Severity == "SHOULD" {
			legacy = append(legacy, i)
		} else {
			otherFailures = true
		}
	}
	if len(legacy) == 0 || (run.ExitCode == 1 && !otherFailures && len(run.Errors) == 0) {
		return
	}
	for _, i := range legacy {
		run.Tests[i].Status = rpt.StatusWarned
	}
	run.Summarize()
}
