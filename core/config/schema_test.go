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
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

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
	js := l.toJSON(doc.Content[0], "")
	if js == nil {
		return nil, l.c.sorted()
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(js))
}

func TestSchemaAcceptsValidSuites(t *testing.T) {
	sch := compileSchema(t)
	valid, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.yml"))
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.yml"))
	if len(valid) == 0 {
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
		if _, err := Load(path); err != nil {
			t.Errorf("%s: rejected by the loader: %v", path, err)
		}
	}
}

func TestSchemaRejectsInvalidSuites(t *testing.T) {
	sch := compileSchema(t)
	for _, tc := range invalidCases {
		path := filepath.Join("testdata", "invalid", tc.file)
		if _, err := Load(path); err == nil {
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

// TestSchemaKeysMatchLoader checks that each object of the schema allows
// exactly the keys the loader supports, and requires the same ones.
func TestSchemaKeysMatchLoader(t *testing.T) {
	var doc map[string]any
	if err := jsonUnmarshal(schemas.SuiteV1, &doc); err != nil {
		t.Fatal(err)
	}
	defs := doc["$defs"].(map[string]any)
	props := doc["properties"].(map[string]any)
	objects := []struct {
		name   string
		schema map[string]any
		spec   *objectSpec
	}{
		{"the suite", doc, suiteKeys},
		{"performance", props["performance"].(map[string]any), performanceKeys},
		{"$defs/server", defs["server"].(map[string]any), serverKeys},
		{"$defs/toolTest", defs["toolTest"].(map[string]any), toolKeys},
		{"$defs/assertion", defs["assertion"].(map[string]any), assertionKeys},
	}
	for _, o := range objects {
		var schemaKeys, schemaRequired, specRequired []string
		for k := range o.schema["properties"].(map[string]any) {
			schemaKeys = append(schemaKeys, k)
		}
		for _, r := range asSlice(o.schema["required"]) {
			schemaRequired = append(schemaRequired, r.(string))
		}
		for _, k := range o.spec.keys {
			if k.required {
				specRequired = append(specRequired, k.name)
			}
		}
		if !sameSet(schemaKeys, o.spec.supported) {
			t.Errorf("%s: schema properties %v, loader supports %v", o.name, sorted(schemaKeys), sorted(o.spec.supported))
		}
		if !sameSet(schemaRequired, specRequired) {
			t.Errorf("%s: schema requires %v, loader requires %v", o.name, sorted(schemaRequired), sorted(specRequired))
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
				if v["additionalProperties"] != false {
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
				walk(ptr+"/"+k, c)
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
