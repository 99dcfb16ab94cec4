package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard/guardtest"
	"github.com/mcptest/mcptest/sdk"
)

func TestExternalRefRefused(t *testing.T) {
	h := serve(t)
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
			h := h.For(t)
			got := h.MustRefuse(matcherKey, tc.schema, tc.want)
			if !strings.HasPrefix(got, "invalid matcher argument: schema: SchemaExternalRef: ") {
				t.Errorf("check error %q, want a SchemaExternalRef error", got)
			}
			h.MustInvalid(h.Match(matcherKey, `{}`, tc.schema), "SchemaExternalRef")
		})
	}
}

func TestLocalRefsAllowed(t *testing.T) {
	h := serve(t)
	for _, schema := range []string{
		`{"$ref":"#"}`,
		`{"$defs":{"a":{"type":"object"}},"$ref":"#/$defs/a"}`,
		`{"$dynamicAnchor":"n","$defs":{"a":{"$dynamicRef":"#n"}}}`,
		`{"enum":[{"$ref":"http://not.a.ref"}],"examples":[{"$ref":"x.json"}],"default":{"$ref":"y"}}`,
	} {
		if err := h.Check(matcherKey, schema); err != nil {
			t.Errorf("%s: rejected: %s", schema, err)
		}
	}
}

func TestDepthCap(t *testing.T) {
	h := serve(t)
	if err := h.Check(matcherKey, guardtest.Nested(64)); err != nil {
		t.Fatalf("depth 64 rejected: %s", err)
	}
	if r := h.Match(matcherKey, `[[[1]]]`, guardtest.Nested(64)); !r.Pass || r.Error != "" {
		t.Fatalf("depth 64 did not match: %+v", r)
	}
	want := "invalid matcher argument: schema: SchemaTooDeep: the schema is nested more than 64 levels deep"
	if got := h.MustRefuse(matcherKey, guardtest.Nested(65), want); got != want {
		t.Errorf("depth 65: check error %q, want %q", got, want)
	}
	h.MustInvalid(h.Match(matcherKey, `1`, guardtest.Nested(65)), want)
	// Brackets inside strings are text, not nesting.
	if err := h.Check(matcherKey, `{"description":"`+strings.Repeat("[{", 100)+`\"]"}`); err != nil {
		t.Errorf("brackets in a string counted as depth: %s", err)
	}
}

// TestGuardErrorsAreDistinct checks each guard error is a suite bug once
// the matcher reports it, and keeps its own sentinel.
func TestGuardErrorsAreDistinct(t *testing.T) {
	_, ext := schemaguard.Compile([]byte(`{"$ref":"https://x"}`), schemaguard.DefaultMaxDepth)
	_, deep := schemaguard.Compile([]byte(guardtest.Nested(65)), schemaguard.DefaultMaxDepth)
	for _, tc := range []struct {
		err, is, isNot error
	}{
		{ext, schemaguard.ErrSchemaExternalRef, schemaguard.ErrSchemaTooDeep},
		{deep, schemaguard.ErrSchemaTooDeep, schemaguard.ErrSchemaExternalRef},
	} {
		wrapped := invalidArg(tc.err)
		if !errors.Is(wrapped, sdk.ErrInvalidArgument) || !errors.Is(wrapped, tc.is) || errors.Is(wrapped, tc.isNot) {
			t.Errorf("%v: the matcher's error loses or mixes up a sentinel", wrapped)
		}
	}
}
