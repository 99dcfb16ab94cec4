package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// warnSuite passes one tool test and breaks one SHOULD requirement of the
// demo (P01: prompts/get without a required argument is not -32602).
const warnSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo passes
    server: demo
    tool: echo
    args: {message: "<b>hi</b>"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "<b>hi</b>"}
compliance:
  - {name: prompt errors, server: demo, check: P01}
`

// tapResult is what plugins/reporters/tap/testdata/parse-tap.cjs prints.
type tapResult struct {
	Asserts []struct {
		ID   int            `json:"id"`
		OK   bool           `json:"ok"`
		Name string         `json:"name"`
		Diag map[string]any `json:"diag"`
	} `json:"asserts"`
	Extra    []string `json:"extra"`
	Complete struct {
		OK                      bool
		Count, Pass, Fail, Skip int
	} `json:"complete"`
}

// parseTAP reads a TAP file with npm's tap-parser in strict mode.
func parseTAP(t *testing.T, path string) tapResult {
	t.Helper()
	mod := filepath.Join(root, ".ci/npm/node_modules/tap-parser")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(mod)
	need(t, "node and .ci/npm/node_modules/tap-parser", nodeErr == nil && modErr == nil)
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(root, "plugins/reporters/tap/testdata/parse-tap.cjs"), mod)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tap-parser: %v", err)
	}
	var res tapResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// chromiumText is the DOM chromium builds for an HTML file.
func chromiumText(t *testing.T, path string) string {
	t.Helper()
	_, err := exec.LookPath("chromium")
	need(t, "chromium", err == nil)
	out, err := exec.Command("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+path).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return string(out)
}

// TestWarningsAgreeInEveryFormat: a run whose only finding is a SHOULD
// warning exits 0, and every format says it passed, with the warning
// shown as one, each checked by its real consumer.
func TestWarningsAgreeInEveryFormat(t *testing.T) {
	suite := writeSuite(t, warnSuite)
	files := renderAll(t, []string{"run", "--no-color", suite}, 0)
	want := report.Summary{Total: 2, Passed: 1, Warned: 1}
	checkFormats(t, files, want, []string{"echo passes", "prompt errors"})

	var run report.Run
	if err := json.Unmarshal([]byte(readFile(t, files["json"])), &run); err != nil {
		t.Fatal(err)
	}
	run.Summary.DurationMS = 0
	if run.Summary != want || run.ExitCode != 0 || run.VersionSummaries != nil {
		t.Errorf("json: summary %+v exit %d versions %+v", run.Summary, run.ExitCode, run.VersionSummaries)
	}
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(readFile(t, files["json"])))

	junit := readFile(t, files["junit"])
	if strings.Contains(junit, "<failure") || !strings.Contains(junit, "warning: P01 (SHOULD)") ||
		!strings.Contains(junit, `name="test[prompt errors].warning" value="P01 (SHOULD)"`) {
		t.Errorf("junit:\n%s", junit)
	}

	t.Run("tap/warning", func(t *testing.T) {
		tap := parseTAP(t, files["tap"])
		// Test points come as tests finish, in whatever order that is.
		severity := map[string]any{}
		for _, a := range tap.Asserts {
			if a.OK {
				severity[a.Name] = a.Diag["severity"]
			}
		}
		if !tap.Complete.OK || tap.Complete.Fail != 0 || tap.Complete.Pass != 2 || len(severity) != 2 || severity["prompt errors"] != "warning" {
			t.Errorf("tap-parser: %+v", tap)
		}
	})

	var badge struct{ Message, Color string }
	_ = json.Unmarshal([]byte(readFile(t, files["badge"])), &badge)
	if badge.Message != "1 passed, 1 warning" || badge.Color != "yellow" {
		t.Errorf("badge %+v", badge)
	}

	md := readFile(t, files["md"])
	if !strings.HasPrefix(md, "## ✅ mcptest: passed with warnings\n") || !strings.Contains(md, "| 🟡 warned | prompt errors (SHOULD) |") {
		t.Errorf("markdown:\n%s", md)
	}

	t.Run("html/verdict", func(t *testing.T) {
		page := chromiumText(t, files["html"])
		if !strings.Contains(page, `<span class="verdict st-warned">passed with warnings</span>`) {
			t.Errorf("the rendered page does not say passed with warnings")
		}
	})

	pretty := readFile(t, files["pretty"])
	mustContain(t, "pretty", pretty, "WARN  prompt errors [compliance]", "1 passed, 0 failed, 1 warned, 0 errored, 0 skipped (2 tests)")

	var sarif struct {
		Runs []struct {
			Results []struct{ RuleID, Level string }
		}
	}
	_ = json.Unmarshal([]byte(readFile(t, files["sarif"])), &sarif)
	if len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 || sarif.Runs[0].Results[0].RuleID != "P01" || sarif.Runs[0].Results[0].Level != "warning" {
		t.Errorf("sarif results %+v", sarif.Runs)
	}

	// `mcptest report --exit-code` re-renders the saved run and exits
	// with its code, for CI report jobs.
	r := mcptest(t, "report", "--exit-code", "--format", "badge", files["json"])
	if r.code != 0 || !strings.Contains(r.stdout, `"color":"yellow"`) {
		t.Errorf("report --exit-code:\n%s", r)
	}
}

// TestWildcardFindingsNameTheirCheck: an entry running every check ("*")
// reports each finding under the check that raised it, at its own level:
// the demo's J06 and J07 as MUST errors, P01 as a SHOULD warning, never
// under "*" and never as MUST for the SHOULD.
func TestWildcardFindingsNameTheirCheck(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
compliance:
  - {name: every check, server: demo, check: "*"}
`)
	files := renderAll(t, []string{"run", "--no-color", suite}, 1)
	checkFormats(t, files, report.Summary{Total: 1, Failed: 1}, []string{"every check"})

	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct{ RuleID, Level string }
		}
	}
	_ = json.Unmarshal([]byte(readFile(t, files["sarif"])), &sarif)
	levels := map[string]string{}
	for _, res := range sarif.Runs[0].Results {
		levels[res.RuleID] = res.Level
	}
	if levels["J06"] != "error" || levels["J07"] != "error" || levels["P01"] != "warning" || len(levels) != 3 {
		t.Errorf("sarif rule levels %v", levels)
	}
	for _, r := range sarif.Runs[0].Tool.Driver.Rules {
		if r.ID == "*" {
			t.Errorf("sarif declares a rule \"*\"")
		}
	}

	var gitlab []struct {
		CheckName string `json:"check_name"`
		Severity  string `json:"severity"`
	}
	_ = json.Unmarshal([]byte(readFile(t, files["gitlab"])), &gitlab)
	sev := map[string]string{}
	for _, i := range gitlab {
		sev[i.CheckName] = i.Severity
	}
	if sev["J06"] != "critical" || sev["P01"] != "minor" || sev["*"] != "" {
		t.Errorf("gitlab severities %v", sev)
	}

	junit := readFile(t, files["junit"])
	for _, want := range []string{"P01 prompts/get with an unknown name or without a required argument gets -32602 (SHOULD, 2025-11-25",
		"J06 An invalid request (no method, a null id, a wrong jsonrpc) gets error -32600 (MUST, 2025-11-25", `value="J06 MUST, J07 MUST, P01 SHOULD"`} {
		if !strings.Contains(junit, want) {
			t.Errorf("junit lacks %q", want)
		}
	}
	if strings.Contains(junit, "P01 prompts/get with an unknown name or without a required argument gets -32602 (MUST") {
		t.Errorf("junit calls the SHOULD finding MUST")
	}

	t.Run("tap/checks", func(t *testing.T) {
		tap := parseTAP(t, files["tap"])
		if len(tap.Asserts) != 1 || tap.Asserts[0].OK {
			t.Fatalf("tap-parser: %+v", tap)
		}
		found := map[string]any{}
		for _, a := range asList(tap.Asserts[0].Diag["assertions"]) {
			if c, ok := a.(map[string]any)["check"].(map[string]any); ok {
				found[fmt.Sprint(c["id"])] = c["level"]
			}
		}
		if found["J06"] != "MUST" || found["P01"] != "SHOULD" {
			t.Errorf("tap diagnostic checks %v", found)
		}
	})
}

// TestStrictWarningsFailEverywhere: `compliance run --strict` makes the
// SHOULD warning a failure, and then every format says failed.
func TestStrictWarningsFailEverywhere(t *testing.T) {
	dir := t.TempDir()
	out := func(f string) string { return filepath.Join(dir, "strict."+f) }
	r := mcptest(t, "compliance", "run", "--server", demoServer(), "--check", "P01", "--strict",
		"--reporter", "json="+out("json"), "--reporter", "junit="+out("xml"), "--reporter", "tap="+out("tap"),
		"--reporter", "badge="+out("badge"), "--reporter", "md="+out("md"), "--reporter", "html="+out("html"))
	if r.code != 1 {
		t.Fatalf("want exit 1 with --strict:\n%s", r)
	}
	_, tests := complianceReport(t, out("json"))
	if tests["P01"].Status != report.StatusFailed || tests["P01"].Check.Severity != "SHOULD" {
		t.Errorf("P01: %s", tests["P01"].Status)
	}
	if x := readFile(t, out("xml")); !strings.Contains(x, "<failure") {
		t.Errorf("junit has no failure:\n%s", x)
	}
	t.Run("tap", func(t *testing.T) {
		if tap := parseTAP(t, out("tap")); tap.Complete.Fail != 1 || tap.Complete.OK {
			t.Errorf("tap-parser: %+v", tap.Complete)
		}
	})
	if b := readFile(t, out("badge")); !strings.Contains(b, `"1 failed"`) || !strings.Contains(b, `"red"`) {
		t.Errorf("badge %s", b)
	}
	if md := readFile(t, out("md")); !strings.HasPrefix(md, "## ❌ mcptest: failed") {
		t.Errorf("markdown heading %q", strings.SplitN(md, "\n", 2)[0])
	}
	t.Run("html/verdict", func(t *testing.T) {
		if page := chromiumText(t, out("html")); !strings.Contains(page, `<span class="verdict st-failed">failed</span>`) {
			t.Errorf("the page does not say failed")
		}
	})
	// Without --strict the same run passes, and says so everywhere.
	r = mcptest(t, "compliance", "run", "--server", demoServer(), "--check", "P01", "--reporter", "badge="+out("plain"))
	if b := readFile(t, out("plain")); r.code != 0 || !strings.Contains(b, `"yellow"`) {
		t.Errorf("without --strict: exit %d, badge %s", r.code, b)
	}
}

// TestOldReportsReRenderWarningsAsWarnings: a report saved before the
// warned status (a SHOULD failure recorded as failed, exit 0) re-renders
// as the passing run its exit code said it was.
func TestOldReportsReRenderWarningsAsWarnings(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	doc := `{"schema_version":"1","run_id":"old","tool":{"name":"mcptest","version":"0.1.0"},
"started_at":"2026-01-01T00:00:00Z","finished_at":"2026-01-01T00:00:01Z","duration_ms":1000,"suites":["s.yml"],
"tests":[
 {"id":"s.yml::tools::echo","name":"echo","file":"s.yml","line":3,"block":"tools","status":"passed","duration_ms":1},
 {"id":"s.yml::compliance::prompt errors","name":"prompt errors","file":"s.yml","line":9,"block":"compliance","status":"failed","duration_ms":1,
  "check":{"id":"P01","title":"prompt errors","severity":"SHOULD"},
  "assertions":[{"index":0,"target":"prompts/get","matcher":"SHOULD","status":"failed","failure":{"expected":"-32602","actual":"-32603"}}]}
],
"summary":{"total":2,"passed":1,"failed":1,"errored":0,"skipped":0,"duration_ms":1000},
"exit_code":0}`
	if err := os.WriteFile(old, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func(f string) string { return filepath.Join(dir, "out."+f) }
	r := mcptest(t, "report", "--exit-code", "--format", "junit="+out("xml"), "--format", "tap="+out("tap"),
		"--format", "badge="+out("badge"), "--format", "md="+out("md"), "--format", "pretty="+out("txt"), old)
	if r.code != 0 {
		t.Fatalf("report --exit-code of an old passing run:\n%s", r)
	}
	if x := readFile(t, out("xml")); strings.Contains(x, "<failure") || !strings.Contains(x, "warning: P01 (SHOULD)") {
		t.Errorf("junit:\n%s", x)
	}
	if b := readFile(t, out("badge")); !strings.Contains(b, `"1 passed, 1 warning"`) {
		t.Errorf("badge %s", b)
	}
	if md := readFile(t, out("md")); !strings.HasPrefix(md, "## ✅ mcptest: passed with warnings") {
		t.Errorf("markdown heading %q", strings.SplitN(md, "\n", 2)[0])
	}
	mustContain(t, "pretty", readFile(t, out("txt")), "WARN  prompt errors", "1 passed, 0 failed, 1 warned")
	t.Run("tap", func(t *testing.T) {
		if tap := parseTAP(t, out("tap")); !tap.Complete.OK || tap.Complete.Fail != 0 {
			t.Errorf("tap-parser: %+v", tap.Complete)
		}
	})
}
