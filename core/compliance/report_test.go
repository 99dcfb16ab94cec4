package compliance

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/schemas"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

func TestResultToTest(t *testing.T) {
	fail := result("J06", Fail)
	fail.Findings = []Finding{{Name: "null id", Status: Fail, Expected: "-32600", Actual: json.RawMessage(`{"x":1}`), Note: "n"}}
	warn := result("J05", Warn)
	warn.Findings = []Finding{{Name: "soft", Status: Warn}}
	warn.Revision = "2025-11-25"
	known := result("J07", Fail)
	known.Known, known.KnownReason = true, "SDK bug"
	known.Findings = []Finding{{Name: "numeric uri", Status: Fail}}
	stale := result("J01", Pass)
	stale.Stale = true
	na := result("U01", NotApplicable)
	na.Message = "no completions"
	errd := result("J02", Errored)

	cases := []struct {
		r        *Result
		status   rpt.Status
		severity string
	}{
		{fail, rpt.StatusFailed, "MUST"},
		{warn, rpt.StatusWarned, "SHOULD"},
		{known, rpt.StatusPassed, "MUST"},
		{stale, rpt.StatusPassed, "MUST"},
		{na, rpt.StatusSkipped, "MUST"},
		{errd, rpt.StatusErrored, "MUST"},
	}
	for _, c := range cases {
		tt := c.r.Test("srv")
		if tt.Status != c.status || tt.Check == nil || tt.Check.Severity != c.severity || tt.Block != "compliance" || tt.ID != TestID(c.r.Check.ID) {
			t.Errorf("%s: %+v", c.r.Check.ID, tt)
		}
	}
	if tt := fail.Test("srv"); tt.Assertions[0].Matcher != "MUST" || tt.Assertions[0].Status != rpt.StatusFailed {
		t.Errorf("finding assertion: %+v", tt.Assertions[0])
	}
	if tt := warn.Test("srv"); tt.Assertions[0].Matcher != "SHOULD" || !tt.IsWarning() {
		t.Errorf("a warning's finding must read SHOULD: %+v", tt.Assertions[0])
	}
	// --strict makes a warning a failure, and only a warning.
	for _, r := range []*Result{warn, fail, na} {
		tt := r.Test("srv")
		before := tt.Status
		Strict(&tt)
		if want := map[rpt.Status]rpt.Status{rpt.StatusWarned: rpt.StatusFailed}[before]; want != "" && tt.Status != want || want == "" && tt.Status != before {
			t.Errorf("Strict(%s %s) = %s", r.Check.ID, before, tt.Status)
		}
	}
	// The check's revision is recorded on the check; the test's protocol
	// version is left to suites that fan out over target_versions.
	if tt := warn.Test("srv"); tt.ProtocolVersion != "" || tt.Check.Revision != warn.Revision {
		t.Errorf("revision: test %q check %q", tt.ProtocolVersion, tt.Check.Revision)
	}
	if tt := known.Test("srv"); tt.Assertions[0].Target != "baseline" || tt.Assertions[1].Status != rpt.StatusSkipped {
		t.Errorf("known failure: %+v", tt.Assertions)
	}
	if tt := na.Test("srv"); tt.Error == nil || tt.Error.Kind != ErrorKindNotApplicable || tt.Error.Message != "no completions" {
		t.Errorf("not applicable: %+v", tt.Error)
	}
}

// TestRunReportMatchesSchema renders a report with every kind of result
// and validates it against the canonical report schema.
func TestRunReportMatchesSchema(t *testing.T) {
	rep := &Report{Target: Target{Command: []string{"demo"}}, Transport: Stdio, Revision: "2025-11-25",
		Server: &ServerInfo{Name: "demo", Version: "1"}, Started: time.Now(), Finished: time.Now()}
	for _, r := range []*Result{result("J06", Fail), result("J05", Warn), result("J01", Pass), result("U01", NotApplicable), result("J02", Errored)} {
		r.Findings = []Finding{{Name: "x", Status: Fail, Expected: 1, Actual: "y"}}
		r.Frames = []rpt.Frame{{Direction: "send", Data: json.RawMessage(`{"a":1}`)}}
		rep.Results = append(rep.Results, r)
	}
	rep.Err = errors.New("for the run errors")
	run := rep.RunReport()
	run.RunID, run.Tool = "id", rpt.ToolInfo{Name: "mcptest", Version: "dev"}
	if run.Summary.Total != 5 || run.Summary.Failed != 1 || run.Summary.Warned != 1 || run.Summary.Skipped != 1 || run.VersionSummaries != nil {
		t.Errorf("summary %+v", run.Summary)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.ReportV1))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(run)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("report does not match the schema: %v", err)
	}
}

// TestEvidenceOnlyForFindings: a passing or not applicable check reports
// no frames (a tool it called may have answered with secrets), nor does
// one that could not run; failed and warned checks keep theirs.
func TestEvidenceOnlyForFindings(t *testing.T) {
	frames := []rpt.Frame{{Direction: "recv", Data: json.RawMessage(`{"result":{"content":[{"type":"text","text":"HOME=/root"}]}}`)}}
	c := &Check{ID: "T01", Title: "tool calls", Severity: Must}
	for status, keep := range map[Status]bool{Pass: false, NotApplicable: false, Fail: true, Warn: true, Errored: false} {
		got := (&Result{Check: c, Status: status, Frames: frames}).Test("s").Frames
		if (len(got) > 0) != keep {
			t.Errorf("%s: %d frames reported, want kept=%v", status, len(got), keep)
		}
	}
}

// TestEvidenceMaskedBeforeTheCut: a secret straddling the 8 KiB cut of a
// frame leaves none of its bytes, as it would if it were masked only
// after the cut.
func TestEvidenceMaskedBeforeTheCut(t *testing.T) {
	const secret = "tok-0123456789-SECRET"
	data := append(bytes.Repeat([]byte("x"), maxFrameBytes-8), []byte(`tok-0123456789-\u0053ECRET and more`)...)
	rec := newRecorder(redact.New(secret))
	rec.add("recv", data)
	got := rec.list()
	if len(got) != 1 || !got[0].Truncated {
		t.Fatalf("frames = %+v", got)
	}
	if bytes.Contains(got[0].Data, []byte("tok-0123")) {
		t.Errorf("the start of the secret is in the evidence: ...%s", got[0].Data[len(got[0].Data)-40:])
	}
}
