package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemasEnv overrides where the published third-party schemas are read.
const schemasEnv = "MCPTEST_THIRDPARTY_SCHEMAS"

// thirdPartySchemas returns the directory holding the published schemas:
// $MCPTEST_THIRDPARTY_SCHEMAS, or testdata/thirdparty in the
// module root (the directory holding go.mod, found by walking up).
func thirdPartySchemas(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv(schemasEnv); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "thirdparty")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the package directory; set %s", schemasEnv)
		}
		dir = parent
	}
}

// sarifSchema compiles the official SARIF 2.1.0 schema (a draft-04
// document) under its own id, asserting formats such as uri and
// date-time.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(thirdPartySchemas(t), "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatalf("SARIF schema not found (set %s): %v", schemasEnv, err)
	}
	var head struct {
		ID    string `json:"id"`
		DolID string `json:"$id"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatal(err)
	}
	id := head.ID + head.DolID
	if id == "" {
		t.Fatal("the SARIF schema has no id")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validateSARIF checks out against the SARIF schema.
func validateSARIF(t *testing.T, out string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("output does not satisfy the SARIF 2.1.0 schema: %v\n%s", err, out)
	}
}

// TestSchemaRejectsInvalid makes sure the validation can fail.
func TestSchemaRejectsInvalid(t *testing.T) {
	sch := sarifSchema(t)
	for _, doc := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"fatal","message":{"text":"m"}}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"region":{"startLine":0}}}]}]}]}`,
		`{"version":"2.0.0","runs":[]}`,
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
