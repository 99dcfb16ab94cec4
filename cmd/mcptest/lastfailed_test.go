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

// A run that has nothing to record writes nothing: no .mcptest folder
// appears in a project without a record, and a record that would not
// change is left as it is (same file, not replaced).
func TestLastFailedWritesOnlyChanges(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("s.yml", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	passed := &rpt.Run{Tests: []rpt.Test{{ID: "s.yml::tools::a", File: "s.yml", Status: rpt.StatusPassed}}}
	failed := &rpt.Run{Tests: []rpt.Test{{ID: "s.yml::tools::a", File: "s.yml", Status: rpt.StatusFailed}}}
	recordLastFailed(passed, t.Output())
	if _, err := os.Stat(".mcptest"); !os.IsNotExist(err) {
		t.Fatalf("a passing run created .mcptest (stat: %v)", err)
	}
	recordLastFailed(failed, t.Output())
	before, err := os.Stat(lastFailedFile)
	if err != nil {
		t.Fatalf("a failing run recorded nothing: %v", err)
	}
	recordLastFailed(failed, t.Output())
	after, err := os.Stat(lastFailedFile)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("an unchanged record was replaced")
	}
	// A pass empties the record: that is a change, written.
	recordLastFailed(passed, t.Output())
	lf, err := readLastFailed(lastFailedFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(lf.Suites) != 0 {
		t.Errorf("record after the test passed = %+v, want empty", lf.Suites)
	}
}
