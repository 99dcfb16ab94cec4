package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

func TestExternalRefRefused(t *testing.T) {
	c := serve(t)
	for _, tc := range []struct{ name, schema, want string }{
		{"https", `{"$ref":"https://example.com/schema.json"}`,
			`SchemaExternalRef: $ref "https://example.com/schema.json" at /$ref points outside the schema`},
		{"relative file", `{"properties":{"a":{"$ref":"other.json#/x"}}}`,
			`$ref "other.json#/x" at /properties/a/$ref`},
		{"file URL", `{"items":{"$ref":"file:///etc/passwd"}}`, `$ref "file:///etc/passwd" at /items/$ref`},
		{"inside $defs", `{"$defs":{"x":{"anyOf":[{"$ref":"urn:x"}]}}}`, `at /$defs/x/anyOf/0/$ref`},
		{"official metaschema by URL", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `$ref "https://json-schema.org/draft/2020-12/schema"`},
		{"$dynamicRef", `{"$dynamicRef":"https://example.com/s#meta"}`, `$dynamicRef "https://example.com/s#meta"`},
		{"same document by absolute $id", `{"$id":"https://example.com/s","$defs":{"a":{}},"$ref":"https://example.com/s#/$defs/a"}`, `SchemaExternalRef`},
		{"unknown metaschema (loader backstop)", `{"$schema":"https://example.com/meta"}`,
			`SchemaExternalRef: the schema needs "https://example.com/meta", and nothing outside the schema is ever loaded`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkOne(t, c, matcherKey, tc.schema)
			if !strings.HasPrefix(got, "invalid matcher argument: schema: SchemaExternalRef: ") || !strings.Contains(got, tc.want) {
				t.Errorf("check error %q, want a SchemaExternalRef error containing %q", got, tc.want)
			}
			mustInvalid(t, matchOne(t, c, `{}`, tc.schema), "SchemaExternalRef")
		})
	}
}

func TestLocalRefsAllowed(t *testing.T) {
	c := serve(t)
	for _, schema := range []string{
		`{"$ref":"#"}`,
		`{"$defs":{"a":{"type":"object"}},"$ref":"#/$defs/a"}`,
		`{"$dynamicAnchor":"n","$defs":{"a":{"$dynamicRef":"#n"}}}`,
		`{"enum":[{"$ref":"http://not.a.ref"}],"examples":[{"$ref":"x.json"}],"default":{"$ref":"y"}}`,
	} {
		if got := checkOne(t, c, matcherKey, schema); got != "" {
			t.Errorf("%s: rejected: %s", schema, got)
		}
	}
}

func TestDepthCap(t *testing.T) {
	c := serve(t)
	if got := checkOne(t, c, matcherKey, nested(64)); got != "" {
		t.Fatalf("depth 64 rejected: %s", got)
	}
	if r := matchOne(t, c, `[[[1]]]`, nested(64)); !r.Pass || r.Error != "" {
		t.Fatalf("depth 64 did not match: %+v", r)
	}
	want := "invalid matcher argument: schema: SchemaTooDeep: the schema is nested more than 64 levels deep"
	if got := checkOne(t, c, matcherKey, nested(65)); got != want {
		t.Errorf("depth 65: check error %q, want %q", got, want)
	}
	mustInvalid(t, matchOne(t, c, `1`, nested(65)), want)
	// Brackets inside strings are text, not nesting.
	if got := checkOne(t, c, matcherKey, `{"description":"`+strings.Repeat("[{", 100)+`\"]"}`); got != "" {
		t.Errorf("brackets in a string counted as depth: %s", got)
	}
}

// TestDepthCheckedBeforeCompile shows the depth guard wins over the others:
// a schema both too deep and external is reported as too deep, and one too
// deep to decode safely is never decoded.
func TestDepthCheckedBeforeCompile(t *testing.T) {
	deepAndExternal := strings.Repeat(`{"items":`, 70) + `{"$ref":"https://x"}` + strings.Repeat(`}`, 70)
	_, err := compileSchema([]byte(deepAndExternal), defaultMaxDepth)
	if !errors.Is(err, ErrSchemaTooDeep) || errors.Is(err, ErrSchemaExternalRef) {
		t.Errorf("error %v, want only ErrSchemaTooDeep", err)
	}
	// Not even valid JSON: refused on depth alone, before decoding.
	_, err = compileSchema([]byte(strings.Repeat("[", 100000)), defaultMaxDepth)
	if !errors.Is(err, ErrSchemaTooDeep) {
		t.Errorf("error %v, want ErrSchemaTooDeep", err)
	}
}

// TestGuardErrorsAreDistinct checks each guard has its own sentinel, and
// each is also a suite bug once the matcher reports it.
func TestGuardErrorsAreDistinct(t *testing.T) {
	_, ext := compileSchema([]byte(`{"$ref":"https://x"}`), defaultMaxDepth)
	_, deep := compileSchema([]byte(nested(65)), defaultMaxDepth)
	for _, tc := range []struct {
		err        error
		is, isNot1 error
		isNot2     error
	}{
		{ext, ErrSchemaExternalRef, ErrSchemaTooDeep, ErrSchemaValidationTimedOut},
		{deep, ErrSchemaTooDeep, ErrSchemaExternalRef, ErrSchemaValidationTimedOut},
	} {
		if !errors.Is(tc.err, tc.is) || errors.Is(tc.err, tc.isNot1) || errors.Is(tc.err, tc.isNot2) {
			t.Errorf("%v: wrong sentinel", tc.err)
		}
		wrapped := invalidArg(tc.err)
		if !errors.Is(wrapped, sdk.ErrInvalidArgument) || !errors.Is(wrapped, tc.is) {
			t.Errorf("%v: the matcher's error loses a sentinel", wrapped)
		}
	}
}
