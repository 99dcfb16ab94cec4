package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/schemas"
)

const schemaURL = "https://mcptest.sh/schema/v1.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.SuiteV1))
	if err != nil {
		t.Fatalf("schemas/v1.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatalf("schemas/v1.json does not compile: %v", err)
	}
	return sch
}

// documentJSON converts a suite file to a JSON value the way the loader
// reads YAML. It fails when the file is not one convertible YAML document
// (syntax error, duplicate or non-string keys, several documents).
func documentJSON(path string) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file is null
		}
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a single YAML document")
	}
	l := newLoader(path)
	js := l.ToJSON(doc.Content[0], "")
	if js == nil {
		return nil, l.C.Sorted()
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(js))
}

func TestSchemaAcceptsValidSuites(t *testing.T) {
	sch := compileSchema(t)
	valid, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.yml"))
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.yml"))
	rows, _ := filepath.Glob(filepath.Join("..", "..", "examples", "data-rows", "*.yml"))
	examples = append(examples, rows...)
	if len(valid) == 0 || len(rows) == 0 {
		t.Fatal("no valid testdata suites")
	}
	for _, path := range append(valid, examples...) {
		v, err := documentJSON(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: rejected by schemas/v1.json: %v", path, err)
		}
		if _, err := LoadWith(path, testOptions()); err != nil {
			t.Errorf("%s: rejected by the loader: %v", path, err)
		}
	}
}

func TestSchemaRejectsInvalidSuites(t *testing.T) {
	sch := compileSchema(t)
	for _, tc := range invalidCases {
		path := filepath.Join("testdata", "invalid", tc.file)
		if _, err := LoadWith(path, testOptions()); err == nil {
			t.Errorf("%s: accepted by the loader", path)
		}
		v, err := documentJSON(path)
		if err != nil {
			if tc.loaderOnly {
				t.Errorf("%s: marked loaderOnly but does not convert: %v", path, err)
			}
			continue // not a JSON document: nothing a schema could accept
		}
		err = sch.Validate(v)
		switch {
		case tc.loaderOnly && err != nil:
			t.Errorf("%s: marked loaderOnly but the schema rejects it too; update invalidCases: %v", path, err)
		case !tc.loaderOnly && err == nil:
			t.Errorf("%s: rejected by the loader but accepted by schemas/v1.json", path)
		}
	}
}

// schemaObjects pairs every object of the schema that lists properties
// with the loader's table of keys for the same object.
var schemaObjects = []struct {
	ptr  string
	spec *yamlpos.ObjectSpec
}{
	{"", suiteKeys},
	{"properties/performance", performanceKeys},
	{"properties/budget", budgetKeys},
	{"properties/fixtures", fixturesKeys},
	{"properties/hooks", hooksKeys},
	{"$defs/server", serverKeys},
	{"$defs/auth", authKeys},
	{"$defs/oauth", oauthKeys},
	{"$defs/http", httpKeys},
	{"$defs/tls", tlsKeys},
	{"$defs/headerValue/oneOf/1", headerEnvKeys},
	{"$defs/variable", variableKeys},
	{"$defs/toolTest", toolKeys},
	{"$defs/resourceTest", resourceKeys},
	{"$defs/promptTest", promptKeys},
	{"$defs/dataRows/oneOf/1", dataKeys},
	{"$defs/defaultTest", defaultTestKeys},
	{"$defs/transform", transformKeys},
	{"$defs/derivedMetric", derivedMetricKeys},
	{"$defs/derivedMetric/properties/value", metricValueKeys},
	{"$defs/metricTerm", metricTermKeys},
	{"$defs/expectLong", expectKeys},
	{"$defs/expectLong/properties/max_response_tokens/oneOf/1", tokenBudgetKeys},
	{"$defs/headerCheck/oneOf/1", headerCheckKeys},
	{"$defs/assertion", assertionKeys},
	{"$defs/assertSet", assertSetKeys},
	{"$defs/matcher/properties/snapshot/oneOf/1", snapshotArgKeys},
	{"$defs/matcher/properties/llm-judge", llmJudgeArgKeys},
	{"$defs/matcher/properties/llm-jury", llmJuryArgKeys},
	{"$defs/matcher/properties/llm-jury/properties/jurors/items", jurorKeys},
	{"$defs/matcher/properties/similar", similarArgKeys},
	{"$defs/matcher/properties/levenshtein", levenshteinArgKeys},
	{"$defs/matcher/properties/factuality", factualityArgKeys},
	{"$defs/matcher/properties/answer-relevance", relevanceArgKeys},
	{"$defs/matcher/properties/context-faithfulness", faithfulnessArgKeys},
	{"$defs/matcher/properties/is-json/oneOf/2", schemaOptionKeys},
	{"$defs/matcher/properties/is-valid-tools-call/oneOf/2", schemaOptionKeys},
	{"$defs/matcher/properties/is-xml/oneOf/2", xmlArgKeys},
	{"$defs/modelRef/oneOf/1", modelRefKeys},
	{"$defs/agentTest", agentKeys},
	{"$defs/trajectoryTest", trajectoryKeys},
	{"$defs/turns/oneOf/0/items", turnKeys},
	{"$defs/turns/oneOf/1", turnsKeys},
	{"$defs/turns/oneOf/1/properties/simulate", simulateKeys},
	{"$defs/recovery", recoveryKeys},
	{"$defs/agentEval", agentEvalKeys},
	{"$defs/metric/oneOf/1", metricKeys},
	{"$defs/fault", faultKeys},
	{"$defs/fault/properties/target", faultTargetKeys},
	{"$defs/provider", providerKeys},
	{"$defs/provider/properties/prices/additionalProperties", priceKeys},
	{"$defs/complianceTest", complianceKeys},
	{"$defs/fixtureError", fixtureErrorKeys},
	{"$defs/composition", compositionBlockKeys},
	{"$defs/compositionNode", nodeKeys},
	{"$defs/hookStep/oneOf/1", hookStepKeys},
	{"$defs/scorer", scorerKeys},
	{"$defs/rubricObject", rubricKeys},
	{"$defs/criterion", criterionKeys},
	{"$defs/criterion/properties/examples/items", exampleKeys},
	{"$defs/criterion/properties/when", whenKeys},
	{"$defs/treeNode", treeKeys},
	{"$defs/scale/oneOf/1", scaleKeys},
	{"$defs/scale/oneOf/1/properties/likert", likertKeys},
	{"$defs/evalTest", evalKeys},
	{"$defs/evalTest/properties/judge", judgeKeys},
	{"$defs/evalTest/properties/judge/properties/jury", juryKeys},
	{"$defs/evalTest/properties/matrix", matrixKeys},
	{"$defs/client", clientKeys},
	{"$defs/root", rootKeys},
	{"$defs/sampling", samplingKeys},
	{"$defs/elicitation", elicitationKeys},
	{"$defs/subscribe", subscribeKeys},
	{"$defs/trigger", triggerKeys},
}

// openMatcherObject is the one object of the schema that accepts keys it
// does not list: matcher keys come from plugins too.
const openMatcherObject = "$defs/matcher"

// TestSchemaKeysMatchLoader checks that each object of the schema allows
// exactly the keys the loader reads, and requires the same ones, and that
// every object of the schema with properties is paired with the loader.
func TestSchemaKeysMatchLoader(t *testing.T) {
	var doc map[string]any
	if err := jsonUnmarshal(schemas.SuiteV1, &doc); err != nil {
		t.Fatal(err)
	}
	paired := map[string]bool{openMatcherObject: true}
	for _, o := range schemaObjects {
		paired[o.ptr] = true
		schema, ok := schemaAt(doc, o.ptr)
		if !ok {
			t.Errorf("%s: not in the schema", o.ptr)
			continue
		}
		var schemaKeys, schemaRequired, specRequired []string
		for k := range schema["properties"].(map[string]any) {
			schemaKeys = append(schemaKeys, k)
		}
		for _, r := range asSlice(schema["required"]) {
			schemaRequired = append(schemaRequired, r.(string))
		}
		for _, k := range o.spec.Keys {
			if k.Required {
				specRequired = append(specRequired, k.Name)
			}
		}
		if !sameSet(schemaKeys, o.spec.Names()) {
			t.Errorf("%s: schema properties %v, loader reads %v", o.ptr, sorted(schemaKeys), sorted(o.spec.Names()))
		}
		if hasAloneKey(o.spec) {
			// The other shape (an assert-set) makes requiredness a oneOf.
			schemaRequired = specRequired
		}
		if !sameSet(schemaRequired, specRequired) {
			t.Errorf("%s: schema requires %v, loader requires %v", o.ptr, sorted(schemaRequired), sorted(specRequired))
		}
	}
	walkSchema(doc, "", func(ptr string, v map[string]any) {
		if _, ok := v["properties"].(map[string]any); ok && !paired[ptr] {
			t.Errorf("%s: an object of the schema with no loader table in schemaObjects", ptr)
		}
	})
}

func hasAloneKey(spec *yamlpos.ObjectSpec) bool {
	for _, k := range spec.Keys {
		if k.Alone {
			return true
		}
	}
	return false
}

// conditionKeys hold subschemas that test a value rather than describe an
// object (the "if" of if/then, "not"); the walks skip them.
var conditionKeys = map[string]bool{"if": true, "not": true}

// schemaAt returns the schema object at a slash-separated path.
func schemaAt(doc map[string]any, ptr string) (map[string]any, bool) {
	var cur any = doc
	if ptr == "" {
		return doc, true
	}
	for _, step := range strings.Split(ptr, "/") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[step]
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// walkSchema calls f for every object of the schema, with its path.
func walkSchema(v any, ptr string, f func(string, map[string]any)) {
	join := func(k string) string {
		if ptr == "" {
			return k
		}
		return ptr + "/" + k
	}
	switch v := v.(type) {
	case map[string]any:
		f(ptr, v)
		for k, c := range v {
			if !conditionKeys[k] {
				walkSchema(c, join(k), f)
			}
		}
	case []any:
		for i, c := range v {
			walkSchema(c, join(strconv.Itoa(i)), f)
		}
	}
}

// TestSchemaIsClosedAndDocumented checks that every object with properties
// forbids other keys and that every property has a description for
// editors to show.
func TestSchemaIsClosedAndDocumented(t *testing.T) {
	var doc map[string]any
	if err := jsonUnmarshal(schemas.SuiteV1, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				if v["additionalProperties"] != false && ptr != "/"+openMatcherObject {
					t.Errorf("%s: object with properties allows additional properties", ptr)
				}
				for name, p := range props {
					p := p.(map[string]any)
					if _, ok := p["description"]; !ok && p["$ref"] == nil {
						t.Errorf("%s/properties/%s: no description", ptr, name)
					}
				}
			}
			for k, c := range v {
				if !conditionKeys[k] {
					walk(ptr+"/"+k, c)
				}
			}
		case []any:
			for i, c := range v {
				walk(fmt.Sprintf("%s/%d", ptr, i), c)
			}
		}
	}
	walk("", doc)
	for name, d := range doc["$defs"].(map[string]any) {
		if _, ok := d.(map[string]any)["description"]; !ok {
			t.Errorf("$defs/%s: no description", name)
		}
	}
}

func jsonUnmarshal(data []byte, v *map[string]any) error {
	x, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	m, ok := x.(map[string]any)
	if !ok {
		return errors.New("not an object")
	}
	*v = m
	return nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

func sameSet(a, b []string) bool { return slices.Equal(sorted(a), sorted(b)) }
