package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcptest/mcptest/sdk/report"
)

// warnedSuite has a passing tool test, a failing one and a compliance
// entry the demo breaks at SHOULD level (P01): a warning, which alone
// does not fail the run.
const warnedSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo answers
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "hello"}
  - name: echo says goodbye
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "goodbye"}
compliance:
  - name: prompt errors
    server: demo
    check: P01
`

// exportFiles runs suite with the json and the three exports and returns
// the files by format.
func exportFiles(t *testing.T, suite string, wantCode int) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run"}
	for _, f := range []string{"json", "openinference", "otlp", "sarif"} {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--reporter", f+"="+files[f])
	}
	if r := mcptest(t, append(args, writeSuite(t, suite))...); r.code != wantCode {
		t.Fatalf("want exit %d:\n%s", wantCode, r)
	}
	return files
}

// readRun reads the JSON report.
func readRun(t *testing.T, path string) *report.Run {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run report.Run
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	return &run
}

// TestExportsOfAWarnedRun renders a live run with a SHOULD warning and a
// failure through openinference, otlp and sarif and reads each with its
// consumer: the OpenInference conventions package, the OTLP protobuf
// types with protojson, and Microsoft's SARIF multitool.
func TestExportsOfAWarnedRun(t *testing.T) {
	files := exportFiles(t, warnedSuite, 1)
	run := readRun(t, files["json"])
	conv := openInferenceConventions(t)

	oi := openInferenceLines(t, files["openinference"])
	root, warned, failed := oi[0], oiTest(t, oi, "prompt errors"), oiTest(t, oi, "echo says goodbye")
	if root["status_code"] != "ERROR" || warned["status_code"] != "OK" || failed["status_code"] != "ERROR" {
		t.Errorf("statuses: run %v, warning %v, failure %v", root["status_code"], warned["status_code"], failed["status_code"])
	}
	if a := attrs(warned); a["mcptest.test.warning"] != true || a["mcptest.test.rule_id"] != "P01" {
		t.Errorf("warned test attributes: %v", a)
	}
	if a := attrs(root); a["mcptest.run.warned"] != 1.0 || a["mcptest.run.failed"] != 1.0 {
		t.Errorf("run counts: %v", a)
	}
	// A failed tool test carries its request and the answer it judged
	// (the report keeps the exchange of failed and errored tests only).
	if a := attrs(failed); !strings.Contains(fmt.Sprint(a["input.value"]), `"tools/call"`) ||
		!strings.Contains(fmt.Sprint(a["output.value"]), "hello") || a["input.mime_type"] != "application/json" {
		t.Errorf("input/output: %v", a)
	}
	// Every test span says whether its answer came from the cache, as the
	// JSON report does.
	for _, tt := range run.Tests {
		if got := attrs(oiTest(t, oi, tt.Name))["mcptest.test.cache_hit"]; got != tt.CacheHit {
			t.Errorf("test %q: cache_hit %v, report %v", tt.Name, got, tt.CacheHit)
		}
	}
	checkConventions(t, conv, oi)

	spans := otlpSpans(t, files["otlp"])
	if len(spans) != len(oi) {
		t.Errorf("%d OTLP spans for %d OpenInference lines", len(spans), len(oi))
	}
	for i, sp := range spans {
		if hex.EncodeToString(sp.SpanId) != oi[i]["span_id"] || sp.Name != oi[i]["name"] {
			t.Errorf("span %d: the two exports disagree (%x %s, %v %v)", i, sp.SpanId, sp.Name, oi[i]["span_id"], oi[i]["name"])
		}
		for _, kv := range sp.Attributes {
			if !strings.HasPrefix(kv.Key, "mcptest.") && !conventionKey(conv, kv.Key) {
				t.Errorf("OTLP span %s: %q is not an OpenInference convention", sp.Name, kv.Key)
			}
		}
	}

	// Re-rendered from the saved JSON report, the trace is the same bytes:
	// ids and times come from the report, so a store de-duplicates it.
	again := filepath.Join(t.TempDir(), "again.otlp.json")
	if r := mcptest(t, "report", files["json"], "--format", "otlp="+again); r.code != 0 {
		t.Fatalf("report: %s", r)
	}
	if read(t, again) != read(t, files["otlp"]) {
		t.Errorf("the otlp export of the saved report differs from the live one")
	}

	logs := map[string]string{"live": read(t, files["sarif"])}
	checkSARIFLevels(t, logs["live"], run, map[string]string{"P01": "warning", "mcptest/assertion/exact": "error"})
	// "Sarif" is the multitool's default rules; one run checks both kinds.
	multitoolValidate(t, "Sarif;Gh", logs)

	// Azure DevOps ingests the log of a pipeline job: re-rendered with
	// the job's variables, it passes the Ado rules too.
	ado := filepath.Join(t.TempDir(), "ado.sarif")
	if r := mcptestEnv(t, azureJobEnv, "report", files["json"], "--format", "sarif="+ado); r.code != 0 {
		t.Fatalf("report: %s", r)
	}
	multitoolValidate(t, "Ado", map[string]string{"ado": read(t, ado)})
}

// TestExportsOfAWarningOnlyRun: a run whose only finding is a SHOULD
// warning exits 0, and no export calls it a failure.
func TestExportsOfAWarningOnlyRun(t *testing.T) {
	suite := strings.Replace(warnedSuite, "  - name: echo says goodbye\n    server: demo\n    tool: echo\n    args: {message: \"hello\"}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: \"goodbye\"}\n", "", 1)
	files := exportFiles(t, suite, 0)
	run := readRun(t, files["json"])
	for _, l := range openInferenceLines(t, files["openinference"]) {
		if l["status_code"] == "ERROR" {
			t.Errorf("span %v is ERROR in a run that only warned", l["name"])
		}
	}
	for _, sp := range otlpSpans(t, files["otlp"]) {
		if sp.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
			t.Errorf("OTLP span %s is ERROR in a run that only warned", sp.Name)
		}
	}
	log := read(t, files["sarif"])
	checkSARIFLevels(t, log, run, map[string]string{"P01": "warning"})
	multitoolValidate(t, "", map[string]string{"warning-only": log})
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// openInferenceLines reads the JSONL export, validating every line
// against the export's schema.
func openInferenceLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(read(t, path)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		validateJSONSchema(t, filepath.Join(root, "plugins/reporters/openinference/testdata/span.schema.json"), sc.Bytes())
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		t.Fatal("empty openinference export")
	}
	return out
}

func attrs(l map[string]any) map[string]any {
	a, _ := l["attributes"].(map[string]any)
	return a
}

// oiTest returns the test span of the named test.
func oiTest(t *testing.T, lines []map[string]any, name string) map[string]any {
	t.Helper()
	for _, l := range lines {
		if l["name"] == "mcptest.test" && attrs(l)["mcptest.test.name"] == name {
			return l
		}
	}
	t.Fatalf("no span for test %q", name)
	return nil
}

// openInferenceConventions reads the attribute keys of the npm package
// @arizeai/openinference-semantic-conventions, with node.
func openInferenceConventions(t *testing.T) map[string]bool {
	t.Helper()
	module := filepath.Join(root, ".ci/npm/node_modules/@arizeai/openinference-semantic-conventions")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(module)
	need(t, "node and .ci/npm/node_modules/@arizeai/openinference-semantic-conventions", nodeErr == nil && modErr == nil)
	out, err := exec.Command("node", filepath.Join(root, "plugins/reporters/internal/spans/spanstest/testdata/conventions.cjs"), module).Output()
	if err != nil {
		t.Fatalf("conventions: %v", err)
	}
	var c struct{ Attributes []string }
	if err := json.Unmarshal(out, &c); err != nil || len(c.Attributes) == 0 {
		t.Fatalf("conventions: %v %s", err, out)
	}
	keys := map[string]bool{}
	for _, k := range c.Attributes {
		keys[k] = true
	}
	return keys
}

// checkConventions checks every attribute key outside mcptest.* is an
// OpenInference convention.
func checkConventions(t *testing.T, conv map[string]bool, lines []map[string]any) {
	t.Helper()
	for _, l := range lines {
		for k := range attrs(l) {
			if !strings.HasPrefix(k, "mcptest.") && !conventionKey(conv, k) {
				t.Errorf("span %v: %q is not an OpenInference convention", l["name"], k)
			}
		}
	}
}

var hexID = regexp.MustCompile(`^[0-9a-f]+$`)

// otlpSpans decodes the OTLP/JSON export with the OTLP protobuf types and
// protojson (ids turned from OTLP/JSON's hex into proto3 JSON's base64
// first) and checks one trace, resolving parents and nested times.
func otlpSpans(t *testing.T, path string) []*tracepb.Span {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(read(t, path)), &doc); err != nil {
		t.Fatalf("otlp export is not JSON: %v", err)
	}
	for _, rs := range doc["resourceSpans"].([]any) {
		for _, ss := range rs.(map[string]any)["scopeSpans"].([]any) {
			for _, sp := range ss.(map[string]any)["spans"].([]any) {
				m := sp.(map[string]any)
				for _, k := range []string{"traceId", "spanId", "parentSpanId"} {
					if s, ok := m[k].(string); ok {
						raw, err := hex.DecodeString(s)
						if err != nil || !hexID.MatchString(s) {
							t.Fatalf("%s %q is not lowercase hex", k, s)
						}
						m[k] = base64.StdEncoding.EncodeToString(raw)
					}
				}
			}
		}
	}
	b, _ := json.Marshal(doc)
	var req collectortrace.ExportTraceServiceRequest
	if err := protojson.Unmarshal(b, &req); err != nil {
		t.Fatalf("protojson: %v", err)
	}
	spans := req.ResourceSpans[0].ScopeSpans[0].Spans
	byID := map[string]*tracepb.Span{}
	for _, sp := range spans {
		byID[string(sp.SpanId)] = sp
		if len(sp.TraceId) != 16 || len(sp.SpanId) != 8 || !bytes.Equal(sp.TraceId, spans[0].TraceId) || sp.StartTimeUnixNano > sp.EndTimeUnixNano {
			t.Errorf("span %s: trace %x span %x times %d..%d", sp.Name, sp.TraceId, sp.SpanId, sp.StartTimeUnixNano, sp.EndTimeUnixNano)
		}
	}
	for _, sp := range spans[1:] {
		p := byID[string(sp.ParentSpanId)]
		if p == nil {
			t.Errorf("span %s: parent %x is missing", sp.Name, sp.ParentSpanId)
		} else if sp.StartTimeUnixNano < p.StartTimeUnixNano || sp.EndTimeUnixNano > p.EndTimeUnixNano {
			t.Errorf("span %s lies outside its parent %s", sp.Name, p.Name)
		}
	}
	if len(spans[0].ParentSpanId) != 0 || spans[0].Name != "mcptest.run" {
		t.Errorf("first span: %s with parent %x", spans[0].Name, spans[0].ParentSpanId)
	}
	return spans
}

// checkSARIFLevels checks each rule's result level and that every
// result's testId is a test of the run.
func checkSARIFLevels(t *testing.T, log string, run *report.Run, want map[string]string) {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID     string         `json:"ruleId"`
				Level      string         `json:"level"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(log), &doc); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tt := range run.Tests {
		ids[tt.ID] = true
	}
	got := map[string]string{}
	for _, r := range doc.Runs[0].Results {
		got[r.RuleID] = r.Level
		if id, _ := r.Properties["testId"].(string); !ids[id] {
			t.Errorf("result %s: testId %q is not a test of the report", r.RuleID, id)
		}
	}
	if len(got) != len(want) {
		t.Errorf("SARIF levels %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("SARIF %s is %q, want %q", k, got[k], v)
		}
	}
}

// azureJobEnv is what an Azure Pipelines agent exports to a job's steps,
// with made-up values of the right shapes.
var azureJobEnv = []string{
	"TF_BUILD=True",
	"SYSTEM_COLLECTIONURI=https://dev.azure.com/contoso/",
	"SYSTEM_TEAMPROJECTID=5f0c6e7a-9d55-4a43-8d8b-0c1e2f3a4b5c",
	"BUILD_DEFINITIONID=17",
	"BUILD_DEFINITIONNAME=mcp-tests",
	"BUILD_BUILDID=4242",
	"SYSTEM_PHASEID=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
	"SYSTEM_PHASENAME=Test",
	"BUILD_SOURCEBRANCH=refs/heads/main",
}

// multitoolValidate runs Microsoft's SARIF multitool on the logs with the
// given rule kind ("" for the default rules, less SARIF2006, which would
// fetch URIs from the network) and fails on any error or warning.
func multitoolValidate(t *testing.T, kind string, logs map[string]string) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the SARIF multitool is used on linux/amd64 only")
	}
	bin := filepath.Join(root, ".ci/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
	_, err := os.Stat(bin)
	need(t, "npm package @microsoft/sarif-multitool-linux", err == nil)
	dir := t.TempDir()
	out := filepath.Join(dir, "multitool-result.json")
	args := []string{"validate"}
	for name, log := range logs {
		p := filepath.Join(dir, name+".sarif")
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	args = append(args, "--config", filepath.Join(root, "plugins/reporters/sarif/testdata/multitool.xml"),
		"--output", out, "--log", "ForceOverwrite", "--level", "Error;Warning;Note")
	if kind != "" {
		args = append(args, "--rule-kind", kind)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	if console, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("multitool: %v\n%s", err, console)
	}
	var res struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(read(t, out)), &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("multitool log: %v", err)
	}
	for _, r := range res.Runs[0].Results {
		if r.Level == "" || r.Level == "error" || r.Level == "warning" {
			t.Errorf("multitool (rule kind %q): %s %s %v", kind, r.Level, r.RuleID, r.Message.Arguments)
		}
	}
}
