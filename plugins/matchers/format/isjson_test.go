package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
)

const idStatusSchema = `{"schema":{"type":"object","required":["id","status"],"properties":{"id":{"type":"integer"},"status":{"enum":["open","closed"]}}}}`

func TestIsJSON(t *testing.T) {
	run(t, []tcase{
		{name: "object", key: "is-json", actual: str(`{"a":[1,2,{"b":null}]}`), arg: `null`, pass: true},
		{name: "array with space around", key: "is-json", actual: str(" \n[1, 2]\n "), arg: `true`, pass: true},
		{name: "number text", key: "is-json", actual: str(`42`), arg: ``, pass: true},
		{name: "string text", key: "is-json", actual: str(`"hi"`), arg: `null`, pass: true},
		{name: "big integer", key: "is-json", actual: str(`123456789012345678901234567890`), arg: `null`, pass: true},
		{name: "bad character", key: "is-json", actual: str("{\n  \"a\": 1,\n  }"), arg: `null`,
			want: map[string]string{
				"note":   "not valid JSON at line 3, column 3: invalid character '}' looking for beginning of object key string",
				"line":   "3",
				"column": "3",
				"actual": "{\n  \"a\": 1,\n  }",
			},
			absent: []string{"expected", "errors"}},
		{name: "not closed", key: "is-json", actual: str(`{"a": [1, 2`), arg: `null`,
			want: map[string]string{"note": "at line 1, column 12: unexpected end of text"}},
		{name: "unterminated string", key: "is-json", actual: str(`{"a": "x`), arg: `null`,
			want: map[string]string{"note": "unexpected end of text"}},
		{name: "trailing text", key: "is-json", actual: str(`{"a":1} {"b":2}`), arg: `null`,
			want: map[string]string{"note": "at line 1, column 9: unexpected text after the JSON value"}},
		{name: "single quotes", key: "is-json", actual: str(`{'a': 1}`), arg: `null`,
			want: map[string]string{"note": "line 1, column 2: invalid character"}},
		{name: "columns count characters", key: "is-json", actual: str(`["héllo", x]`), arg: `null`,
			want: map[string]string{"note": "line 1, column 11:"}},
		{name: "empty text", key: "is-json", actual: str("  "), arg: `null`,
			want: map[string]string{"note": "not valid JSON at line 1, column 1: the text is empty"}},
		{name: "prose", key: "is-json", actual: str(`Sure! Here is the JSON you asked for.`), arg: `null`,
			want: map[string]string{"note": "invalid character 'S'"}},
		{name: "an object is not text", key: "is-json", actual: `{"a":1}`, arg: `null`,
			want: map[string]string{"note": "is-json checks text, but the value is an object, not a string", "actual": `{"a":1}`}},
		{name: "null is not text", key: "is-json", actual: `null`, arg: `null`,
			want: map[string]string{"note": "the value is null"}},
		{name: "schema passes", key: "is-json", actual: str(`{"id": 7, "status": "open", "extra": true}`), arg: idStatusSchema, pass: true},
		{name: "schema fails", key: "is-json", actual: str(`{"id": "7"}`), arg: idStatusSchema,
			want: map[string]string{
				"note":   "the JSON document does not match the schema: at the top level, missing property 'status' (and 1 more error)",
				"errors": `{"instance_path":"","schema_path":"/required","message":"missing property 'status'"},{"instance_path":"/id","schema_path":"/properties/id/type","message":"got string, want integer"}`,
			}},
		{name: "schema enum", key: "is-json", actual: str(`{"id": 1, "status": "lost"}`), arg: idStatusSchema,
			want: map[string]string{"errors": `"instance_path":"/status","schema_path":"/properties/status/enum"`}},
		{name: "schema numbers by value", key: "is-json", actual: str(`{"id": 7.0, "status": "open"}`), arg: idStatusSchema, pass: true},
		{name: "parse error before schema", key: "is-json", actual: str(`{"id": }`), arg: idStatusSchema,
			want: map[string]string{"note": "not valid JSON"}, absent: []string{"errors"}},
		{name: "internal ref", key: "is-json", actual: str(`{"a": {"n": 1}}`),
			arg: `{"schema":{"$defs":{"n":{"type":"object","required":["n"]}},"properties":{"a":{"$ref":"#/$defs/n"}}}}`, pass: true},
		{name: "internal ref fails", key: "is-json", actual: str(`{"a": {}}`),
			arg:  `{"schema":{"$defs":{"n":{"type":"object","required":["n"]}},"properties":{"a":{"$ref":"#/$defs/n"}}}}`,
			want: map[string]string{"errors": `"instance_path":"/a","schema_path":"/$defs/n/required"`}},
		{name: "boolean schema false", key: "is-json", actual: str(`1`), arg: `{"schema":false}`,
			want: map[string]string{"note": "does not match the schema"}},
	})
}

func TestIsJSONManyErrorsAreCapped(t *testing.T) {
	c := conn(t)
	var props, values []string
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("p%02d", i)
		props = append(props, `"`+name+`":{"type":"string"}`)
		values = append(values, `"`+name+`":1`)
	}
	arg := `{"schema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}`
	r := c.Match("is-json", str(`{`+strings.Join(values, ",")+`}`), arg)
	if r.Pass || r.Error != "" {
		t.Fatalf("want a failure, got %+v", r)
	}
	f := c.Failure(r)
	var errs []schemaguard.Error
	if err := json.Unmarshal(f["errors"], &errs); err != nil {
		t.Fatal(err)
	}
	if len(errs) != schemaguard.MaxListedErrors || string(f["errors_total"]) != "30" {
		t.Fatalf("got %d errors, errors_total %s", len(errs), f["errors_total"])
	}
	if errs[0].InstancePath != "/p00" || !strings.Contains(string(f["note"]), "and 29 more errors") {
		t.Errorf("first error %+v, note %s", errs[0], f["note"])
	}
}

func TestIsJSONLongValueIsClipped(t *testing.T) {
	c := conn(t)
	long := "{" + strings.Repeat(`"k": 1, `, 2000)
	r := c.Match("is-json", str(long), `null`)
	if r.Pass {
		t.Fatal("an unclosed object passed")
	}
	var actual string
	if err := json.Unmarshal(c.Failure(r)["actual"], &actual); err != nil {
		t.Fatal(err)
	}
	if len(actual) > maxShownBytes+64 || !strings.HasSuffix(actual, "more bytes)") {
		t.Errorf("actual not clipped: %d bytes, ends %q", len(actual), actual[len(actual)-20:])
	}
}
