package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// legacyReport is a report as mcptest wrote it before warnings had their
// own status: a SHOULD failure recorded as failed and counted in failed.
func legacyReport(exitCode int, extra string) string {
	return `{"schema_version":"1","run_id":"old","tool":{"name":"mcptest","version":"0.1"},
"started_at":"2026-01-01T00:00:00Z","finished_at":"2026-01-01T00:00:01Z","duration_ms":1000,"suites":["s.yml"],
"tests":[
 {"id":"a","name":"echo","file":"s.yml","block":"tools","status":"passed","duration_ms":1},
 {"id":"b","name":"prompt errors","file":"s.yml","block":"compliance","status":"failed","duration_ms":1,
  "check":{"id":"P01","title":"prompt errors","severity":"SHOULD"}}` + extra + `
],
"summary":{"total":2,"passed":1,"failed":1,"errored":0,"skipped":0,"duration_ms":1000},
"exit_code":` + strconv.Itoa(exitCode) + `}`
}

func readString(t *testing.T, doc string) *rpt.Run {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := ReadRun(path)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestOldReportsReRenderWarnings: a saved report from before the warned
// status re-renders its SHOULD failure as the warning its exit code made
// it; one written with --strict (exit 1 explained only by such failures)
// keeps it failed, and a new report is taken as it is.
func TestOldReportsReRenderWarnings(t *testing.T) {
	run := readString(t, legacyReport(0, ""))
	if run.Tests[1].Status != rpt.StatusWarned || run.Summary.Warned != 1 || run.Summary.Failed != 0 || run.Summary.DurationMS != 1000 {
		t.Errorf("old warning: status %s, summary %+v", run.Tests[1].Status, run.Summary)
	}
	// An old report with a real failure too: the SHOULD one is still a
	// warning.
	mixed := readString(t, legacyReport(1, `,{"id":"c","name":"plain","file":"s.yml","block":"tools","status":"failed","duration_ms":1}`))
	if mixed.Tests[1].Status != rpt.StatusWarned || mixed.Tests[2].Status != rpt.StatusFailed {
		t.Errorf("mixed: %s %s", mixed.Tests[1].Status, mixed.Tests[2].Status)
	}
	strict := readString(t, legacyReport(1, ""))
	if strict.Tests[1].Status != rpt.StatusFailed || strict.Summary.Failed != 1 {
		t.Errorf("old strict report: status %s, summary %+v", strict.Tests[1].Status, strict.Summary)
	}
	// A new report carries summary.warned: a failed SHOULD test in it is a
	// strict failure and stays.
	var doc map[string]any
	_ = json.Unmarshal([]byte(legacyReport(0, "")), &doc)
	doc["summary"].(map[string]any)["warned"] = 0
	b, _ := json.Marshal(doc)
	if cur := readString(t, string(b)); cur.Tests[1].Status != rpt.StatusFailed {
		t.Errorf("new report rewritten: %s", cur.Tests[1].Status)
	}
}
