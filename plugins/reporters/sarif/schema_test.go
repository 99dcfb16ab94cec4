package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
)

// sarifSchema compiles the official SARIF 2.1.0 schema (a draft-04
// document) under its own id, asserting formats such as uri and
// date-time.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(rendertest.ThirdPartySchemas(t), "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatalf("SARIF schema not found (set %s): %v", rendertest.SchemasEnv, err)
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
	return rendertest.JSONSchema(t, id, raw)
}

// validateSARIF checks out against the SARIF schema.
func validateSARIF(t *testing.T, out string) {
	t.Helper()
	rendertest.ValidateJSON(t, sarifSchema(t), out, "the SARIF 2.1.0 schema")
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
