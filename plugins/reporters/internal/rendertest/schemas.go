package rendertest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemasEnv overrides where the published third-party schemas are read.
const SchemasEnv = "MCPTEST_THIRDPARTY_SCHEMAS"

// ThirdPartySchemas returns the directory holding the published schemas
// (JUnit XSD, SARIF): $MCPTEST_THIRDPARTY_SCHEMAS, or testdata/thirdparty
// in the module root (the directory holding go.mod, found by walking up
// from the test's package directory).
func ThirdPartySchemas(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv(SchemasEnv); dir != "" {
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
			t.Fatalf("no go.mod above the package directory; set %s", SchemasEnv)
		}
		dir = parent
	}
}

// JSONSchema compiles the JSON Schema document raw under id, asserting
// formats (uri, date-time, …) as the schema's consumers do.
func JSONSchema(t *testing.T, id string, raw []byte) *jsonschema.Schema {
	t.Helper()
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

// ValidateJSON fails t when out is not JSON or does not satisfy sch; what
// names the schema in the message.
func ValidateJSON(t *testing.T, sch *jsonschema.Schema, out, what string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("output does not satisfy %s: %v\n%s", what, err, out)
	}
}
