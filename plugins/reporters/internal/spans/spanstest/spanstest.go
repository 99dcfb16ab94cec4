// Package spanstest holds what the tests of the trace exports share: the
// OpenInference semantic conventions read from their npm package, and
// runs that have every case the exports must get right (a SHOULD warning,
// a MUST failure, a judged test, a cache hit, recorded frames). The
// code-quality reporters (sarif, gitlab) test their warnings on the same
// runs.
package spanstest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// ConventionsPackage is the npm package the conventions are read from.
const ConventionsPackage = "@arizeai/openinference-semantic-conventions"

// Conventions are the OpenInference semantic conventions as the npm
// package exports them.
type Conventions struct {
	// Attributes are the span attribute keys (SemanticConventions).
	Attributes map[string]bool
	// ResourceAttributes are the resource attribute keys (SEMRESATTRS_*).
	ResourceAttributes map[string]bool
	// SpanKinds and MimeTypes are the values of OpenInferenceSpanKind and
	// MimeType.
	SpanKinds map[string]bool
	MimeTypes map[string]bool
}

// RepoRoot returns the repository root: the directory holding go.mod
// above this source file.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the spanstest source")
	}
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above spanstest")
		}
		dir = parent
	}
}

// Need stops the test when a consumer is missing: it fails under CI
// (which installs every consumer) and skips elsewhere.
func Need(t testing.TB, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing; .ci/run installs it", what)
	}
	t.Skipf("%s is missing (run .ci/run or npm install --prefix .ci/npm)", what)
}

// LoadConventions runs node on testdata/conventions.cjs to read the
// conventions out of the npm package installed under .ci/npm.
func LoadConventions(t testing.TB) *Conventions {
	t.Helper()
	root := RepoRoot(t)
	node, err := exec.LookPath("node")
	Need(t, "node", err == nil)
	module := filepath.Join(root, ".ci", "npm", "node_modules", filepath.FromSlash(ConventionsPackage))
	_, err = os.Stat(filepath.Join(module, "package.json"))
	Need(t, "npm package "+ConventionsPackage, err == nil)
	script := filepath.Join(root, "plugins", "reporters", "internal", "spans", "spanstest", "testdata", "conventions.cjs")
	cmd := exec.Command(node, script, module)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("read the conventions: %v\n%s", err, stderr.String())
	}
	var raw struct {
		Attributes, ResourceAttributes, SpanKinds, MimeTypes []string
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("conventions.cjs printed %q: %v", out, err)
	}
	set := func(vs []string) map[string]bool {
		m := map[string]bool{}
		for _, v := range vs {
			m[v] = true
		}
		return m
	}
	c := &Conventions{set(raw.Attributes), set(raw.ResourceAttributes), set(raw.SpanKinds), set(raw.MimeTypes)}
	// The package is not empty or misread: the keys the exports rely on
	// most are there.
	if !c.Attributes["openinference.span.kind"] || !c.SpanKinds["EVALUATOR"] || !c.MimeTypes["application/json"] {
		t.Fatalf("the conventions read from %s lack their basic keys: %s", module, out)
	}
	return c
}

// WarningRun is a finished run that exits 1 and has what the exports
// must tell apart: a pass served from the cache with its request and
// answer recorded, a SHOULD warning, a MUST failure, a test judged below
// its threshold and a skip.
func WarningRun() *report.Run {
	start := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	low, threshold := 0.4, 0.8
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		RunID:         "20261125T093000Z-warning",
		Tool:          report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt:     start,
		FinishedAt:    start.Add(40 * time.Millisecond),
		DurationMS:    40,
		Suites:        []string{"suite.yml"},
		Tests: []report.Test{
			{ID: "suite.yml::tools::echo", Name: "echo", File: "suite.yml", Line: 8, Col: 5, Block: "tools",
				Server: "demo", Tool: "echo", Status: report.StatusPassed, DurationMS: 2.5, CacheHit: true,
				Response: json.RawMessage(`{"result": {"content": [{"type": "text", "text": "hi"}]}}`),
				Frames: []report.Frame{
					{Direction: "send", AtMS: 0.1, Data: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)},
					{Direction: "recv", AtMS: 2.1, Data: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}`)},
				}},
			{ID: "suite.yml::compliance::T06", Name: "T06 tool names", File: "suite.yml", Line: 20, Col: 3, Block: "compliance",
				Server: "demo", Status: WarnedStatus(), DurationMS: 1,
				Check: &report.Check{ID: "T06", Title: "Tool names use 1-128 characters of [A-Za-z0-9_.-]", Severity: "SHOULD", Revision: "2025-11-25", Section: "server/tools"},
				Assertions: []report.Assertion{{Index: 0, Target: "result.tools[0].name", Matcher: "regex", Status: report.StatusFailed,
					Message: "tool name \"bad name!\" breaks the naming rules", Failure: json.RawMessage(`{"expected":"^[A-Za-z0-9_.-]{1,128}$","actual":"bad name!"}`)}}},
			{ID: "suite.yml::compliance::J04", Name: "J04 unknown method", File: "suite.yml", Line: 20, Col: 3, Block: "compliance",
				Server: "demo", Status: report.StatusFailed, DurationMS: 1.5,
				Check:      &report.Check{ID: "J04", Title: "Unknown method answers -32601", Severity: "MUST", Revision: "2025-11-25", Section: "basic/index"},
				Assertions: []report.Assertion{{Index: 0, Target: "error.code", Matcher: "exact", Status: report.StatusFailed, Failure: json.RawMessage(`{"expected":-32601,"actual":-32600}`)}}},
			{ID: "suite.yml::tools::judged", Name: "judged", File: "suite.yml", Line: 30, Col: 5, Block: "tools",
				Server: "demo", Tool: "echo", Status: report.StatusFailed, DurationMS: 12, Score: &low, Threshold: &threshold,
				Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "llm-judge", Status: report.StatusFailed, Score: &low}}},
			{ID: "suite.yml::tools::later", Name: "later", File: "suite.yml", Line: 40, Col: 5, Block: "tools",
				Status: report.StatusSkipped, Error: &report.Error{Kind: "skipped", Message: "filtered out"}},
		},
		ExitCode: 1,
	}
	run.Summarize()
	run.Summary.DurationMS = run.DurationMS
	return run
}

// WarnedStatus is the status the report gives a compliance test that
// broke only a SHOULD requirement: "warned" where the report model has
// that status, "failed" (with the check's severity SHOULD) where it
// marked warnings that way. Test.IsWarning decides, so the fixtures hold
// a warning under either model.
func WarnedStatus() report.Status {
	t := report.Test{Status: "warned", Check: &report.Check{ID: "T06", Severity: "SHOULD"}}
	if t.IsWarning() {
		return t.Status
	}
	return report.StatusFailed
}

// StrictFailure returns a run whose only finding is a SHOULD requirement
// that failed the run (as compliance --strict makes it): the test is
// failed and not a warning. Where the report model tells warnings by
// status and severity alone, the check's severity is spelt "should",
// which that model does not read as a warning either.
func StrictFailure() *report.Run {
	run := OnlyWarning()
	run.RunID += "-strict"
	run.ExitCode = 1
	t := &run.Tests[1]
	t.Status = report.StatusFailed
	if t.IsWarning() {
		t.Check.Severity = "should"
	}
	run.Summarize()
	return run
}

// OnlyWarning is a finished run whose only finding is a SHOULD warning:
// it exits 0.
func OnlyWarning() *report.Run {
	run := WarningRun()
	run.RunID += "-only"
	run.Tests = run.Tests[:2]
	run.ExitCode = 0
	run.Summarize()
	return run
}

// WildcardRun is a finished run with one compliance entry that ran
// several checks (check: "*") and broke a MUST requirement (J06) and a
// SHOULD one (P01): the test failed on J06, and P01 beside it is only a
// warning.
func WildcardRun() *report.Run {
	run := &report.Run{RunID: "wildcard", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"}, Suites: []string{"suite.yml"},
		Tests: []report.Test{{ID: "suite.yml::compliance::every check", Name: "every check", File: "suite.yml", Line: 5, Col: 5,
			Block: "compliance", Server: "demo", Status: report.StatusFailed,
			Check: &report.Check{ID: "*", Title: "3 compliance checks", Severity: "MUST"},
			Assertions: []report.Assertion{
				{Index: 0, Target: "J01", Matcher: "MUST", Status: report.StatusPassed, Check: &report.Check{ID: "J01", Title: "ids match", Severity: "MUST"}},
				{Index: 1, Target: "J06", Matcher: "MUST", Status: report.StatusFailed, Message: "no error for an invalid request",
					Check: &report.Check{ID: "J06", Title: "An invalid request gets -32600", Severity: "MUST"}},
				{Index: 2, Target: "P01", Matcher: "SHOULD", Status: report.StatusFailed, Message: "-32603 instead of -32602",
					Check: &report.Check{ID: "P01", Title: "prompts/get errors get -32602", Severity: "SHOULD"}},
			}}},
		ExitCode: 1,
	}
	run.Summarize()
	return run
}
