package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestRenderProtocolRevisions(t *testing.T) {
	run := &report.Run{
		Tests: []report.Test{
			{ID: "a [2025-11-25]", Name: "a [2025-11-25]", Status: report.StatusPassed, ProtocolVersion: "2025-11-25"},
			{ID: "a [2026-07-28]", Name: "a [2026-07-28]", Status: report.StatusErrored, ProtocolVersion: "2026-07-28",
				Error: &report.Error{Kind: "server_start", Message: `server "mem" does not speak protocol revision 2026-07-28`}},
		},
		Servers: []report.Server{
			{Name: "mem", TargetVersion: "2025-11-25", ProtocolVersion: "2025-06-18"},
			{Name: "mem", TargetVersion: "2026-07-28", Error: "does not speak it"},
		},
		DurationMS: 10,
	}
	run.Summarize()
	var out bytes.Buffer
	r := &renderer{p: painter{}, w: &out, seen: map[string]bool{}}
	if err := r.finish(run); err != nil {
		t.Fatal(err)
	}
	want := `
protocol revisions:
  2025-11-25  1 passed, 0 failed, 0 errored, 0 skipped  · mem spoke 2025-06-18
  2026-07-28  0 passed, 0 failed, 1 errored, 0 skipped  · mem did not start

1 passed, 0 failed, 1 errored, 0 skipped (2 tests) in 0.01s
`
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to end with:\n%s", out.String(), want)
	}
}
