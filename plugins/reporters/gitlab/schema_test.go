package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
)

// schemaFile describes the fields GitLab documents as required.
var schemaFile = filepath.Join("testdata", "codequality.schema.json")

// codeQualitySchema compiles testdata/codequality.schema.json.
func codeQualitySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return rendertest.JSONSchema(t, "urn:mcptest:testdata:gitlab-code-quality", raw)
}

// validateCodeQuality checks out against the schema.
func validateCodeQuality(t *testing.T, out string) {
	t.Helper()
	rendertest.ValidateJSON(t, codeQualitySchema(t), out, schemaFile)
}

// TestSchemaRejectsInvalid makes sure the validation can fail.
func TestSchemaRejectsInvalid(t *testing.T) {
	sch := codeQualitySchema(t)
	ok := `{"description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"p","lines":{"begin":1}}}`
	if inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte("[" + ok + "]"))); sch.Validate(inst) != nil {
		t.Fatalf("schema rejects a valid issue: %v", sch.Validate(inst))
	}
	for _, doc := range []string{
		`{}`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"high","location":{"path":"p","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"p","lines":{"begin":0}}}]`,
		`[{"description":"d","check_name":"c","severity":"major","location":{"path":"p","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"lines":{"begin":1}}}]`,
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepted %s", doc)
		}
	}
}
