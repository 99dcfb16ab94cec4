package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard/guardtest"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestCheckArgument(t *testing.T) {
	c := conn(t)
	for _, tc := range []struct {
		key, arg string
		want     string // "" means accepted
	}{
		{"is-json", `null`, ""},
		{"is-json", ``, ""},
		{"is-json", `true`, ""},
		{"is-json", `{"schema":{"type":"object"}}`, ""},
		{"is-json", `{"schema":true}`, ""},
		{"is-json", `{"schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array"}}`, ""},
		{"is-json", `{"schema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"array"}}`, ""},
		{"is-valid-tools-call", `{"schema":{"required":["city"]}}`, ""},
		{"is-xml", `{"root":"note"}`, ""},
		{"is-xml", `{"root":"soap:Envelope"}`, ""},
		{"is-sql", `null`, ""},
		{"is-sql", `true`, ""},
		{"is-json", `false`, "is-json: false is not a valid argument"},
		{"is-json", `42`, "is-json: expected ~, true or {schema: ...}, got a number"},
		{"is-json", `"object"`, "is-json: expected ~, true or {schema: ...}, got a string"},
		{"is-json", `{"type":"object","required":["id"]}`, `is-json: unknown field "required" (the only field is schema); to validate against a JSON Schema, nest it under schema:`},
		{"is-json", `{"schema":{},"strict":true}`, `is-json: unknown field "strict" (the only field is schema)`},
		{"is-json", `{}`, ""},
		{"is-json", `{"schema":"object"}`, `is-json: field "schema" must be a JSON Schema (an object or a boolean), got a string`},
		{"is-json", `{"schema":{"type":"objekt"}}`, "is-json: the schema is not valid JSON Schema: at /type: value must be one of"},
		{"is-json", `{"schema":{"pattern":"(a"}}`, "is-json: the schema is not valid JSON Schema: at /pattern: '(a' is not valid regex"},
		{"is-json", `{"schema":{"format":5}}`, "is-json: the schema is not valid JSON Schema: at /format: expected string, got number"},
		{"is-json", `{"schema":{"$ref":"#/$defs/missing"}}`, "is-json: the schema does not compile"},
		{"is-json", `{"schema":{"$ref":"https://example.com/s.json"}}`, `is-json: SchemaExternalRef: $ref "https://example.com/s.json" at /$ref points outside the schema`},
		{"is-json", `{"schema":{"properties":{"a":{"$ref":"other.json#/x"}}}}`, `SchemaExternalRef: $ref "other.json#/x" at /properties/a/$ref`},
		{"is-json", `{"schema":{"$schema":"https://example.com/my-meta"}}`, "SchemaExternalRef"},
		// Refused before compiling, even where the compiler would resolve
		// the reference inside the schema (by an embedded $id).
		{"is-json", `{"schema":{"$defs":{"o":{"$id":"other.json"}},"properties":{"a":{"$ref":"other.json"}}}}`, `SchemaExternalRef: $ref "other.json"`},
		{"is-json", `{"schema":{"properties":{"$ref":{"const":{"$ref":"https://example.com/x"}}}}}`, ""},
		{"is-json", `{"schema":` + guardtest.Nested(64) + `}`, ""},
		{"is-json", `{"schema":` + guardtest.Nested(65) + `}`, "is-json: SchemaTooDeep: the schema is nested more than 64 levels deep"},
		{"is-valid-tools-call", `{"schema":{"$ref":"file:///etc/passwd"}}`, "is-valid-tools-call: SchemaExternalRef"},
		{"is-valid-tools-call", `{"arguments":{}}`, `is-valid-tools-call: unknown field "arguments"`},
		{"is-xml", `false`, "is-xml: false is not a valid argument"},
		{"is-xml", `"note"`, "is-xml: expected ~, true or {root: NAME}, got a string"},
		{"is-xml", `{"root":5}`, `is-xml: field "root" must be a string, got a number`},
		{"is-xml", `{"root":""}`, `is-xml: field "root" must be an element name`},
		{"is-xml", `{"root":"<note>"}`, `is-xml: field "root" must be an element name`},
		{"is-xml", `{"root":"a b"}`, `is-xml: field "root" must be an element name`},
		{"is-xml", `{"name":"note"}`, `is-xml: unknown field "name" (the only field is root)`},
		{"is-xml", `{}`, ""},
		{"is-sql", `{"dialect":"postgres"}`, "is-sql: takes no options: write ~ (got an object)"},
		{"is-sql", `"postgres"`, "is-sql: takes no options"},
		{"is-sql", `{`, "is-sql: argument is not valid JSON"},
		{"is-yaml", `null`, `has no matcher "is-yaml"`},
	} {
		if tc.want == "" {
			if err := c.Check(tc.key, tc.arg); err != nil {
				t.Errorf("%s %s: rejected: %s", tc.key, tc.arg, err)
			}
			continue
		}
		if got := c.MustRefuse(tc.key, tc.arg, tc.want); tc.key != "is-yaml" && !strings.HasPrefix(got, "invalid matcher argument: ") {
			t.Errorf("%s %s: error %q lacks the invalid-argument marker", tc.key, tc.arg, got)
		}
	}
}

// TestMatchRefusesBadArgument checks a bad argument reaching Match is a
// suite error, not a failed assertion.
func TestMatchRefusesBadArgument(t *testing.T) {
	c := conn(t)
	r := c.Match("is-json", str(`{}`), `{"schema":{"$ref":"https://example.com/x"}}`)
	if r.ErrorKind != plugintest.ErrorKindInvalidArgument || !strings.Contains(r.Error, "SchemaExternalRef") {
		t.Errorf("got %+v", r)
	}
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "format" || d.Version != "0.1.0" {
		t.Errorf("name/version = %s %s", d.Name, d.Version)
	}
	want := []string{"is-json", "is-sql", "is-valid-tools-call", "is-xml"}
	if len(d.Components) != 1 || d.Components[0].Kind != sdk.KindMatcher || !reflect.DeepEqual(d.Components[0].Keys, want) {
		t.Errorf("components = %+v", d.Components)
	}
}

// TestBatch sends a batch large enough for the SDK to judge it in
// parallel, every key and one schema shared by many items.
func TestBatch(t *testing.T) {
	c := conn(t)
	var items []plugintest.MatchItem
	var want []bool
	for i := 0; i < 400; i++ {
		var key, actual, arg string
		pass := i%3 != 0
		switch i % 4 {
		case 0:
			key, arg = "is-json", idStatusSchema
			actual = str(fmt.Sprintf(`{"id": %d, "status": "open"}`, i))
			if !pass {
				actual = str(fmt.Sprintf(`{"id": "%d"}`, i))
			}
		case 1:
			key, arg, actual = "is-xml", `{"root":"r"}`, str(fmt.Sprintf("<r><i>%d</i></r>", i))
			if !pass {
				actual = str(fmt.Sprintf("<r><i>%d</r>", i))
			}
		case 2:
			key, arg, actual = "is-sql", `null`, str(fmt.Sprintf("SELECT %d FROM t", i))
			if !pass {
				actual = str(fmt.Sprintf("SELECT %d FROM", i))
			}
		case 3:
			key, arg, actual = "is-valid-tools-call", citySchema, fmt.Sprintf(`{"name":"w","arguments":{"city":"c%d"}}`, i)
			if !pass {
				actual = `{"name":"w","arguments":{}}`
			}
		}
		items = append(items, plugintest.MatchItem{ID: uint64(100 + i), Key: key, Actual: json.RawMessage(actual), Argument: json.RawMessage(arg)})
		want = append(want, pass)
	}
	res, err := c.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.ID != uint64(100+i) || r.Pass != want[i] || r.Error != "" {
			t.Fatalf("item %d (%s): %+v, want pass=%v", i, items[i].Key, r, want[i])
		}
	}
}

func TestValidateStopsWithContext(t *testing.T) {
	sch, err := compileSchema(map[string]any{"type": "object"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Either outcome is fine when the race is lost; a canceled context
	// must never be reported as a verdict on the value it did not see.
	errs, err := newFamily().validate(ctx, sch, map[string]any{})
	if err == nil && len(errs) != 0 {
		t.Errorf("errs = %+v", errs)
	}
}
