package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// specSchema is the example of the suite reference.
const specSchema = `{"type":"object","required":["content","isError"],
	"properties":{"content":{"type":"array","minItems":1},"isError":{"type":"boolean"}}}`

func TestSchemaPasses(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ name, actual, schema string }{
		{"spec example", `{"content":[{"type":"text","text":"hi"}],"isError":false,"extra":1}`, specSchema},
		{"true schema", `{"anything":[1,2]}`, `true`},
		{"empty schema", `null`, `{}`},
		{"prefixItems", `["a",1,true]`, `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`},
		{"if then else", `{"kind":"n","v":3}`, `{"if":{"properties":{"kind":{"const":"n"}}},"then":{"properties":{"v":{"type":"number"}}},"else":{"properties":{"v":{"type":"string"}}}}`},
		{"unevaluatedProperties with allOf", `{"a":1,"b":2}`, `{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}`},
		{"internal $ref to $defs", `{"id":"x1"}`, `{"$defs":{"id":{"type":"string","pattern":"^x\\d+$"}},"properties":{"id":{"$ref":"#/$defs/id"}}}`},
		{"oneOf", `5`, `{"oneOf":[{"type":"string"},{"type":"integer"}]}`},
		{"integer accepts 1.0", `1.0`, `{"type":"integer"}`},
		{"draft-07 by $schema", `["a",1]`, `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"},{"type":"integer"}]}`},
		{"format is an annotation in 2020-12", `"not an email"`, `{"format":"email"}`},
		{"$ref inside const is data", `{"$ref":"https://example.com/x"}`, `{"const":{"$ref":"https://example.com/x"}}`},
		{"a property named $ref", `{"$ref":"abc"}`, `{"properties":{"$ref":{"type":"string"}}}`},
		{"anchor reference", `"x"`, `{"$defs":{"s":{"$anchor":"str","type":"string"}},"$ref":"#str"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.For(t)
			r := h.Match(matcherKey, tc.actual, tc.schema)
			if r.Error != "" || !r.Pass {
				t.Fatalf("want a pass, got %+v (failure %s)", r, r.Failure)
			}
		})
	}
}

func TestSchemaFailureShape(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct {
		name, actual, schema string
		want                 []schemaError
		note                 string
	}{
		{
			name:   "spec example",
			actual: `{"content":[{}],"isError":"no"}`, schema: specSchema,
			want: []schemaError{{"/isError", "/properties/isError/type", "expected boolean, got string"}},
			note: "the value does not match the schema: at /isError: expected boolean, got string",
		},
		{
			name:   "several errors sorted by instance path, items by index",
			actual: `{"isError":1,"content":[]}`, schema: specSchema,
			want: []schemaError{
				{"/content", "/properties/content/minItems", "minItems: got 0, want 1"},
				{"/isError", "/properties/isError/type", "expected boolean, got number"},
			},
			note: "the value does not match the schema: at /content: minItems: got 0, want 1 (and 1 more)",
		},
		{
			name:   "missing required properties at the root",
			actual: `{}`, schema: specSchema,
			want: []schemaError{{"", "/required", "missing properties 'content', 'isError'"}},
		},
		{
			name:   "array items ordered numerically",
			actual: `[1,2,3,4,5,6,7,8,9,10,"x"]`, schema: `{"items":{"type":"integer","maximum":1}}`,
			want: []schemaError{
				{"/1", "/items/maximum", "maximum: got 2, want 1"},
				{"/2", "/items/maximum", "maximum: got 3, want 1"},
				{"/3", "/items/maximum", "maximum: got 4, want 1"},
				{"/4", "/items/maximum", "maximum: got 5, want 1"},
				{"/5", "/items/maximum", "maximum: got 6, want 1"},
				{"/6", "/items/maximum", "maximum: got 7, want 1"},
				{"/7", "/items/maximum", "maximum: got 8, want 1"},
				{"/8", "/items/maximum", "maximum: got 9, want 1"},
				{"/9", "/items/maximum", "maximum: got 10, want 1"},
				{"/10", "/items/type", "expected integer, got string"},
			},
		},
		{
			name:   "every anyOf branch is a leaf",
			actual: `true`, schema: `{"anyOf":[{"type":"string"},{"type":"integer","minimum":0}]}`,
			want: []schemaError{
				{"", "/anyOf/0/type", "expected string, got boolean"},
				{"", "/anyOf/1/type", "expected integer, got boolean"},
			},
		},
		{
			name:   "schema path follows $ref",
			actual: `{"id":7}`, schema: `{"$defs":{"id":{"type":"string"}},"properties":{"id":{"$ref":"#/$defs/id"}}}`,
			want: []schemaError{{"/id", "/properties/id/$ref/type", "expected string, got number"}},
		},
		{
			name:   "false schema",
			actual: `1`, schema: `false`,
			want: []schemaError{{"", "", "no value is allowed here (the schema is false)"}},
			note: "the value does not match the schema: at the root: no value is allowed here",
		},
		{
			name:   "unevaluatedProperties",
			actual: `{"a":1,"z":2}`, schema: `{"properties":{"a":{}},"unevaluatedProperties":false}`,
			want: []schemaError{{"/z", "/unevaluatedProperties", "no value is allowed here (the schema is false)"}},
		},
		{
			name:   "additionalProperties",
			actual: `{"a":1,"z":2}`, schema: `{"properties":{"a":{}},"additionalProperties":false}`,
			want: []schemaError{{"", "/additionalProperties", "additional properties 'z' not allowed"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.For(t)
			var f failure
			h.DecodeFailure(h.Match(matcherKey, tc.actual, tc.schema), &f)
			if !reflect.DeepEqual(f.Errors, tc.want) {
				t.Errorf("errors =\n%+v\nwant\n%+v", f.Errors, tc.want)
			}
			if !strings.Contains(f.Note, tc.note) {
				t.Errorf("note %q, want it to contain %q", f.Note, tc.note)
			}
		})
	}
}

func TestSchemaFailureJSON(t *testing.T) {
	h := serve(t)
	r := h.Match(matcherKey, `{"content":[{}],"isError":"no"}`, specSchema)
	want := `{"errors":[{"instance_path":"/isError","schema_path":"/properties/isError/type","message":"expected boolean, got string"}],"note":"the value does not match the schema: at /isError: expected boolean, got string"}`
	if string(r.Failure) != want {
		t.Errorf("failure =\n%s\nwant\n%s", r.Failure, want)
	}
}

func TestSchemaErrorListIsCapped(t *testing.T) {
	h := serve(t)
	items := strings.TrimSuffix(strings.Repeat(`"x",`, 120), ",")
	var f failure
	h.DecodeFailure(h.Match(matcherKey, "["+items+"]", `{"items":{"type":"integer"}}`), &f)
	if len(f.Errors) != schemaguard.MaxListedErrors {
		t.Errorf("%d errors listed, want %d", len(f.Errors), schemaguard.MaxListedErrors)
	}
	if want := "the value does not match the schema: at /0: expected integer, got string (and 119 more)"; f.Note != want {
		t.Errorf("note %q, want %q", f.Note, want)
	}
	if f.Total != 120 {
		t.Errorf("errors_total = %d, want 120", f.Total)
	}
}

// TestSchemaBigIntegers checks numbers are compared exactly: as float64,
// each of these pairs would be the same number and the match would be
// wrong.
func TestSchemaBigIntegers(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct {
		name, actual, schema string
		pass                 bool
	}{
		{"just under an int64 minimum past the range", `9223372036854775807`, `{"minimum":9223372036854775808}`, false},
		{"at the minimum", `9223372036854775808`, `{"minimum":9223372036854775808}`, true},
		{"2^53+1 above a 2^53 maximum", `9007199254740993`, `{"maximum":9007199254740992}`, false},
		{"const differs in the last digit", `12345678901234567891`, `{"const":12345678901234567890}`, false},
		{"const equal", `12345678901234567890`, `{"const":12345678901234567890}`, true},
		{"enum of big ids", `{"id":18446744073709551617}`, `{"properties":{"id":{"enum":[18446744073709551616,18446744073709551617]}}}`, true},
		{"big integer is an integer", `123456789012345678901234567890`, `{"type":"integer"}`, true},
		{"multipleOf on a big integer", `100000000000000000001`, `{"multipleOf":10}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.For(t)
			r := h.Match(matcherKey, tc.actual, tc.schema)
			if r.Error != "" || r.Pass != tc.pass {
				t.Fatalf("pass = %v (error %q, failure %s), want %v", r.Pass, r.Error, r.Failure, tc.pass)
			}
		})
	}
}

func TestSchemaBadArguments(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ key, arg, want string }{
		{matcherKey, specSchema, ""},
		{matcherKey, `true`, ""},
		{matcherKey, ``, "schema: an inline JSON Schema is required"},
		{matcherKey, `{"type":5}`, "schema: the schema is not valid JSON Schema: at /type: value must be one of 'array', 'boolean'"},
		{matcherKey, `{"type":"strin"}`, "schema: the schema is not valid JSON Schema: at /type"},
		{matcherKey, `"object"`, "schema: the schema is not valid JSON Schema: at the root: expected boolean or object, got string"},
		{matcherKey, `{"type":"object"`, "schema: the argument is not valid JSON"},
		{matcherKey, `{"pattern":"(a"}`, "schema: the schema is not valid JSON Schema: at /pattern"},
		{matcherKey, `{"$ref":"#/$defs/missing"}`, "schema: the schema does not compile"},
		{"schemas", `{}`, `has no matcher "schemas"`},
	} {
		if tc.want == "" {
			if err := h.Check(tc.key, tc.arg); err != nil {
				t.Errorf("%s: rejected: %s", tc.arg, err)
			}
			continue
		}
		got := h.MustRefuse(tc.key, tc.arg, tc.want)
		if tc.key == matcherKey && !strings.HasPrefix(got, "invalid matcher argument: ") {
			t.Errorf("%s: error %q lacks the invalid-argument marker", tc.arg, got)
		}
	}
	// The same argument errors the same way when an item is matched.
	h.MustInvalid(h.Match(matcherKey, `1`, `{"type":5}`), "schema: the schema is not valid JSON Schema")
}

func TestSchemaBadActualValue(t *testing.T) {
	h := serve(t)
	for _, actual := range []string{``, `{"a":`, `1 2`} {
		r := h.Match(matcherKey, actual, `{}`)
		if r.ErrorKind != plugintest.ErrorKindInternal || !strings.Contains(r.Error, "schema: decode actual value") {
			t.Errorf("actual %q: got %s %q, want an internal decode error", actual, r.ErrorKind, r.Error)
		}
	}
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "schema" || d.Version != "0.1.0" {
		t.Errorf("name/version = %s %s", d.Name, d.Version)
	}
	if len(d.Components) != 1 || d.Components[0].Kind != sdk.KindMatcher || !reflect.DeepEqual(d.Components[0].Keys, []string{"schema"}) {
		t.Errorf("components = %+v", d.Components)
	}
}

// TestSchemaMetaschemaChecks checks schemas are held to their full
// dialect, annotation keywords included (see metaschema.go).
func TestSchemaMetaschemaChecks(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ schema, want string }{
		{`{"format":5}`, "schema: the schema is not valid JSON Schema: at /format: expected string, got number"},
		{`{"title":5,"minLength":-1}`, "at /minLength: minimum: got -1, want 0; at /title: expected string, got number"},
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","deprecated":"x"}`, "at /deprecated: expected boolean, got string"},
		{`{"$schema":"http://json-schema.org/draft/2020-12/schema#","readOnly":1}`, "at /readOnly: expected boolean, got number"},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","title":5}`, "schema: the schema is not valid JSON Schema: at /title: expected string, got number"},
	} {
		h.MustRefuse(matcherKey, tc.schema, tc.want)
	}
}

func TestSchemaCompileErrorsReadOnOneLine(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ schema, want string }{
		{`{"pattern":"(a"}`, "schema: the schema is not valid JSON Schema: at /pattern: '(a' is not valid regex"},
		{`{"$ref":"#/$defs/missing"}`, `schema: the schema does not compile: json-pointer in "mcptest:schema-argument.json#/$defs/missing" not found`},
	} {
		if got := h.MustRefuse(matcherKey, tc.schema, tc.want); strings.Contains(got, "\n") {
			t.Errorf("%s: check error %q, want one line", tc.schema, got)
		}
	}
}

// TestSchemaRefCycle: a schema whose references loop can never give a
// verdict, so it is a suite bug, not a failed value.
func TestSchemaRefCycle(t *testing.T) {
	h := serve(t)
	schema := `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`
	h.MustInvalid(h.Match(matcherKey, `1`, schema), `schema: the schema's references loop: /$ref/$ref and /$ref both lead to mcptest:schema-argument.json#/$defs/a`)
}
