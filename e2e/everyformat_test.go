package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/sdk/report"
)

// allFormatsWarnSuite passes one tool test and breaks a SHOULD requirement
// of the demo (P01) twice: once named, once through a prefix entry ("P*")
// that runs every prompt check. Both are warnings, so the run exits 0.
const allFormatsWarnSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo passes
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "hi"}
compliance:
  - {name: prompt errors, server: demo, check: P01}
  - {name: every prompt check, server: demo, check: "P*"}
`

// allFormatsInterruptSuite is interruptSuite with the wildcard entry
// after it, which the interrupt leaves unreached too.
const allFormatsInterruptSuite = interruptSuite + `
compliance:
  - {name: every prompt check, server: demo, check: "P*"}
`

// formatRun is one run written by every bundled reporter, with what the
// checks compare each output with.
type formatRun struct {
	files       map[string]string // by plugin name, plus "step-summary"
	code        int
	interrupted bool
	want        report.Summary
	run         *report.Run // the json report
}

// formatFile maps a bundled reporter plugin to the name checkFormats and
// the other helpers know its file by (the markdown plugin is "md" there).
func formatFile(plugin string) string {
	if plugin == "markdown" {
		return "md"
	}
	return plugin
}

// everyFormatCheck is, for each bundled reporter plugin, how its output is
// read by its consumer and compared with the exit code. A bundled
// reporter missing here fails TestEveryBundledReporterAgreesWithTheExitCode.
var everyFormatCheck = map[string]func(t *testing.T, r *formatRun){
	"json":          checkAllJSON,
	"ndjson":        checkAllNDJSON,
	"junit":         checkAllJUnit,
	"sarif":         checkAllSARIF,
	"gitlab":        checkAllGitLab,
	"markdown":      checkAllMarkdown,
	"html":          checkAllHTML,
	"tap":           checkAllTAP,
	"openinference": checkAllOpenInference,
	"otlp":          checkAllOTLP,
	"badge":         checkAllBadge,
	"pretty":        checkAllPretty,
	"agent":         checkAllAgent,
}

// bundledReporters reads the manifests of the bundle folder next to the
// built mcptest and returns the plugins that offer a reporter.
func bundledReporters(t *testing.T) []string {
	t.Helper()
	manifests, err := filepath.Glob(filepath.Join(binDir, "mcptest-plugins", "*", "mcptest-plugin.yaml"))
	if err != nil || len(manifests) == 0 {
		t.Fatalf("no bundled manifests (%v)", err)
	}
	var out []string
	for _, m := range manifests {
		var doc struct {
			Name       string
			Components []struct{ Kind string }
		}
		if err := yaml.Unmarshal([]byte(read(t, m)), &doc); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		for _, c := range doc.Components {
			if c.Kind == "reporter" {
				out = append(out, doc.Name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// everyReporterArgs returns "--reporter plugin=file" for every bundled
// reporter, and the files by plugin name.
func everyReporterArgs(t *testing.T, plugins []string) ([]string, map[string]string) {
	dir := t.TempDir()
	files := map[string]string{"step-summary": filepath.Join(dir, "step-summary.md")}
	var args []string
	for _, p := range plugins {
		files[p] = filepath.Join(dir, "out."+p)
		args = append(args, "--reporter", p+"="+files[p])
	}
	return args, files
}

// TestEveryBundledReporterAgreesWithTheExitCode writes a run with SHOULD
// warnings and a wildcard compliance entry (exit 0), and a run stopped by
// SIGINT part-way (exit 130), with every bundled reporter at once, and
// reads each output with its real consumer: no format may call the warned
// run failed, and each says the interrupted run was cut short with the
// unreached tests skipped, as far as the format can say it.
func TestEveryBundledReporterAgreesWithTheExitCode(t *testing.T) {
	plugins := bundledReporters(t)
	var missing []string
	for _, p := range plugins {
		if everyFormatCheck[p] == nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 || len(plugins) != len(everyFormatCheck) {
		t.Fatalf("bundled reporters %v; no check for %v (the table has %d checks)", plugins, missing, len(everyFormatCheck))
	}

	t.Run("warned", func(t *testing.T) {
		args, files := everyReporterArgs(t, plugins)
		cmd := append(append([]string{"run", "--no-color"}, args...), writeSuite(t, allFormatsWarnSuite))
		res := mcptestEnv(t, []string{"GITHUB_STEP_SUMMARY=" + files["step-summary"]}, cmd...)
		if res.code != 0 {
			t.Fatalf("want exit 0 for a run that only warned:\n%s", res)
		}
		checkEveryFormat(t, &formatRun{files: files, code: 0, want: report.Summary{Total: 3, Passed: 1, Warned: 2}},
			[]string{"echo passes", "prompt errors", "every prompt check"})
	})

	t.Run("interrupted", func(t *testing.T) {
		args, files := everyReporterArgs(t, plugins)
		cmd := append(append([]string{"run", "--no-color", "-j", "1"}, args...), writeSuite(t, allFormatsInterruptSuite))
		r := startMcptest(t, []string{"GITHUB_STEP_SUMMARY=" + files["step-summary"]}, cmd...)
		waitFor(t, "the slow test to start", 60*time.Second, func() bool {
			return strings.Contains(liveEvents(files["ndjson"]), `"name":"slow one is cut short"`)
		})
		r.signal(t, syscall.SIGINT)
		if code := r.wait(t, 60*time.Second); code != report.ExitInterrupted {
			t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, r.stdout, r.stderr)
		}
		checkEveryFormat(t, &formatRun{files: files, code: report.ExitInterrupted, interrupted: true,
			want: report.Summary{Total: 5, Passed: 1, Skipped: 4}},
			[]string{"first passes", "never reached b", "every prompt check"})
		assertNoOrphans(t)
	})
}

// checkEveryFormat runs the shared consumer checks (checkFormats) and then
// each reporter's own check from the table.
func checkEveryFormat(t *testing.T, r *formatRun, names []string) {
	t.Helper()
	shared := map[string]string{"step-summary": r.files["step-summary"]}
	for p, f := range r.files {
		shared[formatFile(p)] = f
	}
	checkFormats(t, shared, r.want, names)
	r.run = readRun(t, r.files["json"])
	for p, check := range everyFormatCheck {
		t.Run(p, func(t *testing.T) { check(t, r) })
	}
}

func checkAllJSON(t *testing.T, r *formatRun) {
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, r.files["json"])))
	got := r.run.Summary
	got.DurationMS = 0
	if got != r.want || r.run.ExitCode != r.code || r.run.Interrupted() != r.interrupted {
		t.Errorf("json: summary %+v exit %d interrupted %v; want %+v exit %d interrupted %v",
			got, r.run.ExitCode, r.run.Interrupted(), r.want, r.code, r.interrupted)
	}
	for _, tc := range r.run.Tests {
		if r.interrupted && tc.Status == report.StatusSkipped && (tc.Error == nil || tc.Error.Kind != report.ErrorKindInterrupted) {
			t.Errorf("json: skipped test %q does not say the interrupt skipped it: %+v", tc.Name, tc.Error)
		}
	}
}

func checkAllNDJSON(t *testing.T, r *formatRun) {
	status := map[string]report.Status{}
	for _, tc := range r.run.Tests {
		status[tc.Name] = tc.Status
	}
	sc := bufio.NewScanner(strings.NewReader(read(t, r.files["ndjson"])))
	sc.Buffer(nil, 64<<20)
	var last report.Event
	for sc.Scan() {
		last = report.Event{}
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("ndjson line is not an event: %v", err)
		}
		if last.Type == report.EventTestFinished && last.Test.Status != status[last.Test.Name] {
			t.Errorf("ndjson: %q finished %s, the json report says %s", last.Test.Name, last.Test.Status, status[last.Test.Name])
		}
	}
	if last.Type != report.EventRunFinished || last.Run.ExitCode != r.code || last.Run.Interrupted() != r.interrupted {
		t.Errorf("ndjson: last event %s, want run_finished with exit %d", last.Type, r.code)
	}
}

func checkAllJUnit(t *testing.T, r *formatRun) {
	x := read(t, r.files["junit"])
	if strings.Contains(x, "<failure") {
		t.Errorf("junit has a failure, and no test failed:\n%s", x)
	}
	if !r.interrupted {
		if strings.Contains(x, "<error") || !strings.Contains(x, "warning: P01 (SHOULD)") {
			t.Errorf("junit of a warned run:\n%s", x)
		}
		return
	}
	checkJUnitSkips(t, r.files["junit"], r.want.Skipped)
	// JUnit has no "interrupted"; the interrupt is an error case, which
	// CI shows as a run that did not pass.
	if !strings.Contains(x, `type="interrupt"`) || !strings.Contains(x, "interrupted by SIGINT") {
		t.Errorf("junit does not show the interrupt as an error:\n%s", x)
	}
}

func checkAllSARIF(t *testing.T, r *formatRun) {
	log := read(t, r.files["sarif"])
	if r.interrupted {
		checkSARIFLevels(t, log, r.run, map[string]string{})
	} else {
		checkSARIFLevels(t, log, r.run, map[string]string{"P01": "warning"})
	}
	var doc struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				ExitCode            int  `json:"exitCode"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(log), &doc); err != nil || len(doc.Runs) != 1 || len(doc.Runs[0].Invocations) != 1 {
		t.Fatalf("sarif runs/invocations: %v", err)
	}
	if inv := doc.Runs[0].Invocations[0]; inv.ExitCode != r.code || inv.ExecutionSuccessful == r.interrupted {
		t.Errorf("sarif invocation %+v for exit %d", inv, r.code)
	}
	// Default rules and GitHub's on the live log; Azure DevOps's on the
	// log re-rendered with a pipeline job's variables.
	multitoolValidate(t, "Sarif;Gh", map[string]string{"live": log})
	ado := filepath.Join(t.TempDir(), "ado.sarif")
	if res := mcptestEnv(t, azureJobEnv, "report", r.files["json"], "--format", "sarif="+ado); res.code != 0 {
		t.Fatalf("report: %s", res)
	}
	multitoolValidate(t, "Ado", map[string]string{"ado": read(t, ado)})
}

func checkAllGitLab(t *testing.T, r *formatRun) {
	var issues []struct {
		Type        string `json:"type"`
		CheckName   string `json:"check_name"`
		Description string `json:"description"`
		Severity    string `json:"severity"`
		Fingerprint string `json:"fingerprint"`
		Location    struct {
			Path string `json:"path"`
		} `json:"location"`
	}
	if err := json.Unmarshal([]byte(read(t, r.files["gitlab"])), &issues); err != nil {
		t.Fatalf("gitlab: not an array of issues: %v", err)
	}
	got := map[string]string{}
	for _, i := range issues {
		if i.Type != "issue" || i.Description == "" || i.Fingerprint == "" || i.Location.Path == "" {
			t.Errorf("gitlab issue lacks a field GitLab needs: %+v", i)
		}
		got[i.CheckName] = i.Severity
	}
	want := map[string]string{"P01": "minor"}
	if r.interrupted {
		want = map[string]string{"mcptest/run-error/interrupt": "blocker"}
	}
	if len(got) != len(want) || got[firstKey(want)] != want[firstKey(want)] {
		t.Errorf("gitlab issues %v, want %v", got, want)
	}
}

func firstKey(m map[string]string) string {
	for k := range m {
		return k
	}
	return ""
}

// verdictWords is how the markdown heading and the html verdict name
// each run.
func verdictWords(r *formatRun) (md, html string) {
	if r.interrupted {
		return "## ⏹️ mcptest: interrupted\n", `<span class="verdict st-errored">interrupted</span>`
	}
	return "## ✅ mcptest: passed with warnings\n", `<span class="verdict st-warned">passed with warnings</span>`
}

func checkAllMarkdown(t *testing.T, r *formatRun) {
	heading, _ := verdictWords(r)
	for _, f := range []string{"markdown", "step-summary"} {
		if md := read(t, r.files[f]); !strings.HasPrefix(md, heading) {
			t.Errorf("%s heading %q, want %q", f, strings.SplitN(md, "\n", 2)[0], heading)
		}
	}
}

func checkAllHTML(t *testing.T, r *formatRun) {
	_, want := verdictWords(r)
	if page := chromiumText(t, r.files["html"]); !strings.Contains(page, want) {
		t.Errorf("the page chromium built does not say %s", want)
	}
}

func checkAllTAP(t *testing.T, r *formatRun) {
	tap := parseTAP(t, r.files["tap"])
	c := tap.Complete
	if c.Count != r.want.Total || c.Fail != 0 || c.Skip != r.want.Skipped || !c.OK {
		t.Errorf("tap-parser: %+v, want %+v", c, r.want)
	}
	if r.interrupted && !strings.Contains(read(t, r.files["tap"]), "# run error: interrupt: interrupted by SIGINT") {
		t.Errorf("tap does not say the run was interrupted:\n%s", read(t, r.files["tap"]))
	}
}

func checkAllOpenInference(t *testing.T, r *formatRun) {
	oi := openInferenceLines(t, r.files["openinference"])
	checkConventions(t, openInferenceConventions(t), oi)
	a := attrs(oi[0])
	if a["mcptest.run.exit_code"] != float64(r.code) || (a["mcptest.run.interrupted"] == true) != r.interrupted {
		t.Errorf("openinference run span: exit %v interrupted %v", a["mcptest.run.exit_code"], a["mcptest.run.interrupted"])
	}
	for _, l := range oi {
		if l["status_code"] == "ERROR" {
			t.Errorf("span %v is ERROR, and no test failed", l["name"])
		}
	}
	for _, tc := range r.run.Tests {
		if tc.Status == report.StatusSkipped && attrs(oiTest(t, oi, tc.Name))["mcptest.test.status"] != "skip" {
			t.Errorf("openinference: %q is not a skip", tc.Name)
		}
	}
}

func checkAllOTLP(t *testing.T, r *formatRun) {
	spans := otlpSpans(t, r.files["otlp"])
	if n := len(openInferenceLines(t, r.files["openinference"])); len(spans) != n {
		t.Errorf("%d OTLP spans for %d OpenInference lines", len(spans), n)
	}
	for _, sp := range spans {
		if sp.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
			t.Errorf("OTLP span %s is ERROR, and no test failed", sp.Name)
		}
	}
	interrupted := false
	for _, kv := range spans[0].Attributes {
		if kv.Key == "mcptest.run.interrupted" {
			interrupted = kv.Value.GetBoolValue()
		}
	}
	if interrupted != r.interrupted {
		t.Errorf("OTLP run span: mcptest.run.interrupted %v, want %v", interrupted, r.interrupted)
	}
}

// checkAllBadge reads the badge as shields.io's endpoint does (it is a
// JSON document, not an SVG: shields.io draws the image).
func checkAllBadge(t *testing.T, r *formatRun) {
	var b struct {
		SchemaVersion  int
		Label, Message string
		Color          string
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(read(t, r.files["badge"]))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil || b.SchemaVersion != 1 || b.Label != "mcptest" {
		t.Fatalf("badge %+v: %v", b, err)
	}
	want := "1 passed, 2 warnings yellow"
	if r.interrupted {
		want = "interrupted, 4 skipped critical"
	}
	if got := b.Message + " " + b.Color; got != want {
		t.Errorf("badge %q, want %q", got, want)
	}
}

func checkAllPretty(t *testing.T, r *formatRun) {
	out := read(t, r.files["pretty"])
	if r.interrupted {
		mustContain(t, "pretty", out, "\ninterrupted: 1 passed, 0 failed, 0 errored, 4 skipped (5 tests)")
		return
	}
	mustContain(t, "pretty", out, "\n1 passed, 0 failed, 2 warned, 0 errored, 0 skipped (3 tests)")
	if strings.Contains(out, "interrupted") || strings.Contains(out, "FAIL") {
		t.Errorf("pretty of a warned run:\n%s", out)
	}
}
