package schemas

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// reportDefs maps each report type to where the schema describes it ("" is
// the root).
var reportDefs = map[reflect.Type]string{
	reflect.TypeFor[report.Run]():                  "",
	reflect.TypeFor[report.ToolInfo]():             "tool",
	reflect.TypeFor[report.Server]():               "server",
	reflect.TypeFor[report.Summary]():              "summary",
	reflect.TypeFor[report.RunError]():             "run_error",
	reflect.TypeFor[report.Test]():                 "test",
	reflect.TypeFor[report.Assertion]():            "assertion",
	reflect.TypeFor[report.Error]():                "test_error",
	reflect.TypeFor[report.Frame]():                "frame",
	reflect.TypeFor[report.Check]():                "check",
	reflect.TypeFor[report.Shard]():                "shard",
	reflect.TypeFor[report.Partial]():              "partial",
	reflect.TypeFor[report.Hook]():                 "hook",
	reflect.TypeFor[report.DerivedMetric]():        "derived_metric",
	reflect.TypeFor[report.MetricRollup]():         "metric_rollup",
	reflect.TypeFor[report.Node]():                 "node",
	reflect.TypeFor[report.VersionSummary]():       "version_summary",
	reflect.TypeFor[report.LatencySummary]():       "latency_summary",
	reflect.TypeFor[report.Agent]():                "agent",
	reflect.TypeFor[report.AgentTokens]():          "agent_tokens",
	reflect.TypeFor[report.AgentMessage]():         "agent_message",
	reflect.TypeFor[report.AgentMessageToolCall](): "agent_message_tool_call",
	reflect.TypeFor[report.AgentModelCall]():       "agent_model_call",
	reflect.TypeFor[report.AgentToolCall]():        "agent_tool_call",
	reflect.TypeFor[report.AgentOmitted]():         "agent_omitted",
	reflect.TypeFor[report.Trials]():               "trials",
	reflect.TypeFor[report.TrialTest]():            "trial_test",
	reflect.TypeFor[report.Costs]():                "costs",
	reflect.TypeFor[report.SuiteCost]():            "suite_cost",
	reflect.TypeFor[report.Eval]():                 "eval",
	reflect.TypeFor[report.EvalCell]():             "eval_cell",
	reflect.TypeFor[report.EvalScale]():            "eval_scale",
	reflect.TypeFor[report.EvalCriterion]():        "eval_criterion",
	reflect.TypeFor[report.EvalStep]():             "eval_step",
	reflect.TypeFor[report.EvalJuror]():            "eval_juror",
	reflect.TypeFor[report.EvalJury]():             "eval_jury",
}

// TestReportSchemaMatchesGoTypes walks the report types and checks that
// the schema lists exactly their JSON fields, requires exactly the fields
// encoded without omitempty, closes every object, and refers to the right
// definition for every nested struct.
func TestReportSchemaMatchesGoTypes(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(ReportV1, &root); err != nil {
		t.Fatalf("report.v1.json: %v", err)
	}
	defs, _ := root["$defs"].(map[string]any)
	for typ, name := range reportDefs {
		obj := root
		if name != "" {
			obj, _ = defs[name].(map[string]any)
		}
		if obj == nil {
			t.Errorf("%s: no $defs/%s", typ, name)
			continue
		}
		checkReportObject(t, typ, obj)
	}
}

// laterFields are written in every report but optional in the schema,
// because reports saved before the field existed lack it and must still
// re-render (mcptest report checks saved reports against the schema).
var laterFields = map[string]bool{
	"Summary.warned":          true,
	"VersionSummary.warned":   true,
	"Summary.deferred":        true,
	"VersionSummary.deferred": true,
}

func checkReportObject(t *testing.T, typ reflect.Type, obj map[string]any) {
	t.Helper()
	if obj["additionalProperties"] != false {
		t.Errorf("%s: additionalProperties must be false", typ)
	}
	props, _ := obj["properties"].(map[string]any)
	var fields, required []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		fields = append(fields, name)
		if !strings.Contains(opts, "omitempty") && !laterFields[typ.Name()+"."+name] {
			required = append(required, name)
		}
		prop, _ := props[name].(map[string]any)
		if prop == nil {
			t.Errorf("%s: field %q is not in the schema", typ, name)
			continue
		}
		checkReportRef(t, typ, name, f.Type, prop)
	}
	var schemaFields []string
	for k := range props {
		schemaFields = append(schemaFields, k)
	}
	var schemaRequired []string
	for _, r := range obj["required"].([]any) {
		schemaRequired = append(schemaRequired, r.(string))
	}
	sort.Strings(fields)
	sort.Strings(required)
	sort.Strings(schemaFields)
	sort.Strings(schemaRequired)
	if !slices.Equal(fields, schemaFields) {
		t.Errorf("%s: Go fields %v, schema properties %v", typ, fields, schemaFields)
	}
	if !slices.Equal(required, schemaRequired) {
		t.Errorf("%s: Go fields without omitempty %v, schema required %v", typ, required, schemaRequired)
	}
}

// checkReportRef checks that a struct-typed field points at its definition.
func checkReportRef(t *testing.T, typ reflect.Type, name string, ft reflect.Type, prop map[string]any) {
	t.Helper()
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
		items, _ := prop["items"].(map[string]any)
		if items == nil {
			t.Errorf("%s.%s: array without items", typ, name)
			return
		}
		prop, ft = items, ft.Elem()
	}
	if ft.Kind() != reflect.Struct || ft.PkgPath() != reflect.TypeFor[report.Run]().PkgPath() {
		return
	}
	if want := "#/$defs/" + reportDefs[ft]; prop["$ref"] != want {
		t.Errorf("%s.%s: $ref %v, want %s", typ, name, prop["$ref"], want)
	}
}

func compileReportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ReportV1))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.v1.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.v1.json")
	if err != nil {
		t.Fatalf("compile report.v1.json: %v", err)
	}
	return sch
}

func TestReportSchemaAcceptsAndRejects(t *testing.T) {
	sch := compileReportSchema(t)
	minimal := `{"schema_version":"1","run_id":"r","tool":{"name":"mcptest","version":"0.1.0"},` +
		`"started_at":"2026-01-02T03:04:05Z","finished_at":"2026-01-02T03:04:06.5Z","duration_ms":1500,` +
		`"suites":[],"tests":[%s],"summary":{"total":0,"passed":0,"failed":0,"errored":0,"skipped":0,"duration_ms":0},"exit_code":0%s}`
	test := `{"id":"a","name":"a","file":"s.yml","block":"tools","status":"failed","duration_ms":1,` +
		`"assertions":[{"index":0,"target":"result","matcher":"regex","status":"failed","failure":{"expected":"x","match":null,"anything":[1]}}]}`
	evalTest := `{"id":"e","name":"e","file":"s.yml","block":"evals","status":"passed","duration_ms":1,` +
		`"eval":{"form":"criteria","candidate":"response","judge_model":"m","score":0.8,"threshold":0.7,"passed":true,` +
		`"scale":{"kind":"likert","min":1,"max":5},"display":"4.2/5",` +
		`"criteria":[{"name":"a","weight":1,"score":0.8,"threshold":0.7,"passed":true,"evidence":"x","evidence_found":true}],` +
		`"jurors":[{"index":0,"model":"m","score":0.8,"passed":true},{"index":1,"model":"m","passed":false,"abstained":true,"error":"not JSON"}],` +
		`"jury":{"kind":"jury","size":2,"abstained":1,"consensus":0.5,"pass_fraction":1},"calls":2,"cost_usd":0.001}}`
	for _, tc := range []struct {
		name, tests, extra string
		ok                 bool
	}{
		{"minimal", "", "", true},
		{"open failure object", test, "", true},
		{"unknown top-level field", "", `,"extra":1`, false},
		{"unknown test field", strings.Replace(test, `"block"`, `"bogus":1,"block"`, 1), "", false},
		{"bad status", strings.Replace(test, `"status":"failed","duration_ms"`, `"status":"broken","duration_ms"`, 1), "", false},
		{"failure must be an object", strings.Replace(test, `"failure":{"expected":"x","match":null,"anything":[1]}`, `"failure":"text"`, 1), "", false},
		{"graded eval and costs", evalTest, `,"costs":{"total_usd":0.0042,"suites":[{"suite":"s.yml","usd":0.0042}],"calls":4,"cached_calls":1}`, true},
		{"eval score above 1", strings.Replace(evalTest, `"score":0.8,"threshold"`, `"score":4,"threshold"`, 1), "", false},
		{"unknown eval field", strings.Replace(evalTest, `"form":"criteria"`, `"form":"criteria","bogus":1`, 1), "", false},
		{"unknown juror field", strings.Replace(evalTest, `"index":1,`, `"index":1,"vendor":"x",`, 1), "", false},
		{"costs without total", "", `,"costs":{"suites":[]}`, false},
	} {
		doc := strings.Replace(minimal, "%s", tc.tests, 1)
		doc = strings.Replace(doc, "%s", tc.extra, 1)
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := sch.Validate(v); (err == nil) != tc.ok {
			t.Errorf("%s: valid=%v, want %v (%v)", tc.name, err == nil, tc.ok, err)
		}
	}
	empty := strings.Replace(minimal, "%s", "", 2)
	for name, doc := range map[string]string{
		"schema_version 2":        strings.Replace(empty, `"schema_version":"1"`, `"schema_version":"2"`, 1),
		"started_at not a time":   strings.Replace(empty, "2026-01-02T03:04:05Z", "yesterday", 1),
		"tests null":              strings.Replace(empty, `"tests":[]`, `"tests":null`, 1),
		"summary missing a count": strings.Replace(empty, `"skipped":0,`, ``, 1),
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sch.Validate(v) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestReportSchemaAcceptsFixtures checks the reporters' fixture runs (the
// sample and the graded-evals run) against the schema, so every field the
// reporters are tested with is one a saved report may hold.
func TestReportSchemaAcceptsFixtures(t *testing.T) {
	sch := compileReportSchema(t)
	for name, run := range map[string]*report.Run{"sample": reporttest.Sample(), "evals": reporttest.Evals()} {
		raw, err := json.Marshal(run)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
