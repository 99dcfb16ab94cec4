package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// A failure stays recorded until the test passes; a test the run did not
// reach keeps what it had; the record survives a write and a read.
func TestLastFailedRecord(t *testing.T) {
	run := func(st map[string]rpt.Status) *rpt.Run {
		r := &rpt.Run{}
		for _, id := range []string{"a", "b", "c"} {
			if s, ok := st[id]; ok {
				r.Tests = append(r.Tests, rpt.Test{ID: "s.yml::tools::" + id, File: "s.yml", Status: s})
			}
		}
		return r
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("s.yml", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(".mcptest", "last-failed.json")
	lf, err := readLastFailed(path)
	if err != nil {
		t.Fatal(err)
	}
	lf.record(run(map[string]rpt.Status{"a": rpt.StatusFailed, "b": rpt.StatusErrored, "c": rpt.StatusPassed}))
	lf.record(run(map[string]rpt.Status{"a": rpt.StatusPassed, "b": rpt.StatusSkipped}))
	if err := lf.write(path); err != nil {
		t.Fatal(err)
	}
	back, err := readLastFailed(path)
	if err != nil {
		t.Fatal(err)
	}
	got := back.Suites[suiteKey("./s.yml")]
	if got == nil || !slices.Equal(got.Failed, []string{"tools::b"}) {
		t.Errorf("record = %+v, want only tools::b", got)
	}
	// A suite that is gone leaves the record.
	if err := os.Remove("s.yml"); err != nil {
		t.Fatal(err)
	}
	back.record(&rpt.Run{})
	if len(back.Suites) != 0 {
		t.Errorf("a deleted suite is still recorded: %+v", back.Suites)
	}
}
