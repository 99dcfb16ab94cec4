package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// These tests read our TAP with a real consumer, npm's tap-parser, which
// .ci/run installs under .ci/npm. Without node or the package they fail in
// CI (CI is set) and are skipped elsewhere.

// parsed is what testdata/parse-tap.cjs prints.
type parsed struct {
	Version  int             `json:"version"`
	Asserts  []parsedAssert  `json:"asserts"`
	Extra    []string        `json:"extra"`
	Bailout  json.RawMessage `json:"bailout"`
	Complete *struct {
		OK      bool            `json:"ok"`
		Count   int             `json:"count"`
		Pass    int             `json:"pass"`
		Fail    int             `json:"fail"`
		Skip    int             `json:"skip"`
		Todo    int             `json:"todo"`
		Bailout json.RawMessage `json:"bailout"`
		Plan    struct {
			Start, End *int
			SkipAll    bool `json:"skipAll"`
		} `json:"plan"`
		Failures []struct {
			ID       int            `json:"id"`
			Name     string         `json:"name"`
			TapError *string        `json:"tapError"`
			Diag     map[string]any `json:"diag"`
		} `json:"failures"`
	} `json:"complete"`
}

type parsedAssert struct {
	ID       int            `json:"id"`
	OK       bool           `json:"ok"`
	Name     string         `json:"name"`
	Skip     any            `json:"skip"`
	Todo     any            `json:"todo"`
	Buffered bool           `json:"buffered"`
	Diag     map[string]any `json:"diag"`
}

// repoRoot walks up from the package directory to the go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}

// tapConsumer returns node and the tap-parser directory, or stops the test.
func tapConsumer(t *testing.T) (node, module string) {
	t.Helper()
	missing := func(what string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing; .ci/run installs it", what)
		}
		t.Skipf("%s is missing (run .ci/run or npm install --prefix .ci/npm)", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	module = filepath.Join(repoRoot(t), ".ci", "npm", "node_modules", "tap-parser")
	if _, err := os.Stat(filepath.Join(module, "package.json")); err != nil {
		missing("npm package tap-parser")
	}
	return node, module
}

// parseTAP feeds tap to tap-parser and checks it read a clean stream: TAP
// 14, no bail out, no line it could not read, no protocol error.
func parseTAP(t *testing.T, tap string) *parsed {
	t.Helper()
	node, module := tapConsumer(t)
	cmd := exec.Command(node, filepath.Join("testdata", "parse-tap.cjs"), module)
	cmd.Stdin = strings.NewReader(tap)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tap-parser: %v\n%s", err, stderr.String())
	}
	var p parsed
	if err := json.Unmarshal(out, &p); err != nil || p.Complete == nil {
		t.Fatalf("tap-parser printed no result (%v):\n%s", err, out)
	}
	if p.Version != 14 {
		t.Errorf("tap-parser saw TAP version %d", p.Version)
	}
	if string(p.Bailout) != "null" || string(p.Complete.Bailout) != "false" {
		t.Errorf("tap-parser saw a bail out: %s / %s", p.Bailout, p.Complete.Bailout)
	}
	if len(p.Extra) > 0 {
		t.Errorf("tap-parser found lines that are not TAP: %q", p.Extra)
	}
	for _, f := range p.Complete.Failures {
		if f.TapError != nil {
			t.Errorf("tap-parser reported a protocol error: %s (test %d %q)", *f.TapError, f.ID, f.Name)
		}
	}
	if t.Failed() {
		t.Logf("the TAP was:\n%s", tap)
	}
	return &p
}

func renderTAP(t *testing.T, events []report.Event) string {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "tap"}, events)
	if got.Err != nil {
		t.Fatalf("render: %v", got.Err)
	}
	return got.Primary
}

func TestSampleReadsBackWithTapParser(t *testing.T) {
	run := reporttest.Sample()
	p := parseTAP(t, renderTAP(t, reporttest.Events()))
	c, s := p.Complete, run.Summary

	if c.Count != s.Total || c.Fail != s.Failed+s.Errored || c.Skip != s.Skipped || c.Pass != s.Passed+s.Warned+s.Skipped {
		t.Errorf("tap-parser counted %d tests, %d pass, %d fail, %d skip; the report has %+v", c.Count, c.Pass, c.Fail, c.Skip, s)
	}
	if c.OK {
		t.Error("tap-parser says the run is ok, yet tests failed")
	}
	if c.Plan.End == nil || *c.Plan.End != s.Total || c.Plan.SkipAll {
		t.Errorf("plan = %+v, want 1..%d", c.Plan, s.Total)
	}
	if len(p.Asserts) != len(run.Tests) {
		t.Fatalf("tap-parser saw %d test points, want %d", len(p.Asserts), len(run.Tests))
	}
	for i, a := range p.Asserts {
		tt := &run.Tests[i]
		want := textsafe.CleanLineTrim(tt.Name)
		if a.ID != i+1 || a.Name != want || a.Buffered || a.Todo != false {
			t.Errorf("test point %d = %+v, want id %d name %q", i+1, a, i+1, want)
		}
		if wantOK := tt.Status == report.StatusPassed || tt.Status == report.StatusWarned || tt.Status == report.StatusSkipped; a.OK != wantOK {
			t.Errorf("test %q: ok = %v for status %s", tt.Name, a.OK, tt.Status)
		}
		if tt.Status == report.StatusSkipped && a.Skip != tt.Error.Message {
			t.Errorf("test %q: skip = %v, want the reason %q", tt.Name, a.Skip, tt.Error.Message)
		}
		checkDiag(t, tt, a.Diag)
	}
}

// checkDiag compares a test point's decoded YAML block with the test.
func checkDiag(t *testing.T, tt *report.Test, diag map[string]any) {
	t.Helper()
	if tt.Status != report.StatusFailed && tt.Status != report.StatusErrored && tt.Status != report.StatusWarned {
		if diag != nil {
			t.Errorf("test %q (%s) has diagnostics: %v", tt.Name, tt.Status, diag)
		}
		return
	}
	wantSeverity := map[report.Status]string{report.StatusFailed: "fail", report.StatusWarned: "warning", report.StatusErrored: "error"}[tt.Status]
	if diag["severity"] != wantSeverity || diag["message"] == "" || diag["message"] == nil {
		t.Errorf("test %q: severity %v, message %v", tt.Name, diag["severity"], diag["message"])
	}
	if want := tt.File + ":" + itoa(tt.Line); diag["at"] != want {
		t.Errorf("test %q: at = %v, want %s", tt.Name, diag["at"], want)
	}
	if tt.Status == report.StatusErrored {
		if diag["message"] != tt.Error.Message {
			t.Errorf("test %q: message = %v, want %q", tt.Name, diag["message"], tt.Error.Message)
		}
		return
	}
	// The first failed assertion's expected and actual come through as
	// the values they were, not as strings of JSON.
	var first struct{ Expected, Actual any }
	for _, a := range tt.Assertions {
		if a.Status == report.StatusFailed {
			if err := json.Unmarshal(a.Failure, &first); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if first.Expected != nil && !reflect.DeepEqual(diag["expected"], first.Expected) {
		t.Errorf("test %q: expected = %#v, want %#v", tt.Name, diag["expected"], first.Expected)
	}
	if first.Actual != nil && !reflect.DeepEqual(diag["actual"], first.Actual) {
		t.Errorf("test %q: actual = %#v, want %#v", tt.Name, diag["actual"], first.Actual)
	}
	if list, _ := diag["assertions"].([]any); len(list) != len(failedAssertions(tt)) {
		t.Errorf("test %q: %d assertions in the block, want %d", tt.Name, len(list), len(failedAssertions(tt)))
	}
}

// TestHostileTextReadsBack throws at tap-parser the text that breaks naive
// TAP writers: directives, escapes, forged test points and bail outs,
// YAML terminators, and a diff whose lines start with spaces.
func TestHostileTextReadsBack(t *testing.T) {
	diff := "  indented first line\n--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n {\n-  \"a\": 1\n+  \"a\": 2\n\n  ...\n }"
	stderr := "line one\n  ...\n---\nBail out! from stderr\n\x1b[31mred\x1b[0m\n"
	tests := []report.Test{
		{ID: "1", Name: `has # hash \ and \# both # SKIP not really`, File: "s.yml", Line: 1, Status: report.StatusPassed},
		{ID: "2", Name: "two lines\nnot ok 99 - forged", File: "s.yml", Line: 2, Status: report.StatusPassed},
		{ID: "3", Name: "Bail out! in a name", File: "s.yml", Line: 3, Status: report.StatusFailed, Stderr: stderr,
			Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "exact", Status: report.StatusFailed,
				Failure: json.RawMessage(`{"expected":{"a":1,"yes":"no","":null,"k: v":[1,"2",{"#":"\u001b[2J\ufeff"}]},"actual":"- item\n# not a comment","deep":` + strings.Repeat(`[{"k":`, 12) + "1" + strings.Repeat("}]", 12) + `,"diff":` + jsonString(diff) + `}`)}}},
		{ID: "4", Name: "ends with a brace {", File: "s.yml", Line: 4, Status: report.StatusSkipped,
			Error: &report.Error{Kind: "skipped", Message: "reason # with hash {"}},
		{ID: "5", Name: "", File: "s.yml", Line: 5, Status: report.StatusErrored,
			Error: &report.Error{Kind: "timeout", Message: "no answer\nwithin 1s"}},
		{ID: "6", Name: "2 starts with a digit", Status: report.StatusFailed},
		{ID: "7", Name: "looks skipped # SKIP forged", Status: report.StatusFailed},
		{ID: "8", Name: "looks todo #TODO forged", Status: report.StatusFailed},
	}
	run := &report.Run{RunID: "hostile", Tests: tests}
	run.Summarize()
	events := []report.Event{{Type: report.EventRunStarted, Run: &report.Run{RunID: "hostile"}}}
	for i := range tests {
		events = append(events, report.Event{Type: report.EventTestFinished, Test: &tests[i]})
	}
	events = append(events, report.Event{Type: report.EventRunFinished, Run: run})
	tap := renderTAP(t, events)
	p := parseTAP(t, tap)

	wantNames := []string{
		`has # hash \ and \# both # SKIP not really`,
		"two lines not ok 99 - forged",
		"Bail out! in a name",
		"ends with a brace \uff5b",
		"5",
		"2 starts with a digit",
		"looks skipped # SKIP forged",
		"looks todo #TODO forged",
	}
	if len(p.Asserts) != len(wantNames) {
		t.Fatalf("tap-parser saw %d test points, want %d:\n%s", len(p.Asserts), len(wantNames), tap)
	}
	for i, a := range p.Asserts {
		if a.Name != wantNames[i] || a.Buffered {
			t.Errorf("test point %d: name %q (buffered %v), want %q", i+1, a.Name, a.Buffered, wantNames[i])
		}
	}
	for _, i := range []int{0, 6, 7} {
		if a := p.Asserts[i]; a.Skip != false || a.Todo != false {
			t.Errorf("a # in a name was read as a directive: %+v", a)
		}
	}
	if p.Asserts[3].Skip != "reason # with hash \uff5b" {
		t.Errorf("skip reason = %v", p.Asserts[3].Skip)
	}
	d := p.Asserts[2].Diag
	if d["diff"] != diff {
		t.Errorf("diff did not survive the literal block:\n got %q\nwant %q", d["diff"], diff)
	}
	if want := "line one\n  ...\n---\nBail out! from stderr\nred"; d["stderr"] != want {
		t.Errorf("stderr = %q, want %q", d["stderr"], want)
	}
	wantExpected := map[string]any{"a": float64(1), "yes": "no", "": nil, "k: v": []any{float64(1), "2", map[string]any{"#": "\ufeff"}}}
	if !reflect.DeepEqual(d["expected"], wantExpected) {
		t.Errorf("expected = %#v\nwant %#v", d["expected"], wantExpected)
	}
	// Nesting beyond maxDepth is shown as one line of JSON.
	failure := d["assertions"].([]any)[0].(map[string]any)["failure"].(map[string]any)
	if !strings.Contains(fmt.Sprint(failure["deep"]), `[{"k":1}]`) {
		t.Errorf("deep value = %v", failure["deep"])
	}
	if d["actual"] != "- item\n# not a comment" {
		t.Errorf("actual = %#v", d["actual"])
	}
	if msg := p.Asserts[4].Diag["message"]; msg != "no answer\nwithin 1s" {
		t.Errorf("errored message = %#v", msg)
	}
	if c := p.Complete; c.Count != 8 || c.Fail != 5 || c.Skip != 1 || c.Todo != 0 {
		t.Errorf("counts: %+v", c)
	}
}

func TestPassingAndEmptyRunsAreOK(t *testing.T) {
	pass := report.Test{ID: "a", Name: "a", Status: report.StatusPassed}
	run := &report.Run{RunID: "ok", Tests: []report.Test{pass}}
	run.Summarize()
	p := parseTAP(t, renderTAP(t, []report.Event{
		{Type: report.EventRunStarted, Run: &report.Run{RunID: "ok"}},
		{Type: report.EventTestFinished, Test: &pass},
		{Type: report.EventRunFinished, Run: run},
	}))
	if !p.Complete.OK || p.Complete.Count != 1 || p.Complete.Pass != 1 {
		t.Errorf("passing run: %+v", p.Complete)
	}

	empty := &report.Run{RunID: "empty"}
	p = parseTAP(t, renderTAP(t, []report.Event{{Type: report.EventRunFinished, Run: empty}}))
	if !p.Complete.OK || p.Complete.Count != 0 || !p.Complete.Plan.SkipAll {
		t.Errorf("empty run: %+v", p.Complete)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
