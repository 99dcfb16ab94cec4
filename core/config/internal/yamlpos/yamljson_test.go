package yamlpos

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// convert parses src and converts its root value to JSON.
func convert(t *testing.T, src string) (string, Errors) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	l := NewReader("v.yml")
	js := l.ToJSON(doc.Content[0], "/v")
	errs := l.C.Sorted()
	if js != nil && len(errs) > 0 {
		t.Errorf("%q: got JSON %s along with errors %v", src, js, errs)
	}
	if js == nil && len(errs) == 0 {
		t.Errorf("%q: no JSON and no error", src)
	}
	if js != nil && !json.Valid(js) {
		t.Errorf("%q: invalid JSON %s", src, js)
	}
	return string(js), errs
}

func TestToJSON(t *testing.T) {
	cases := []struct{ src, want string }{
		// integers keep their digits, whatever their size
		{"1", "1"},
		{"-42", "-42"},
		{"123456789012345678901234567890", "123456789012345678901234567890"},
		{"-98765432109876543210987654321", "-98765432109876543210987654321"},
		{"9007199254740993", "9007199254740993"}, // 2^53+1, not representable in float64
		{"+7", "7"},
		{"1_000_000", "1000000"},
		{"0x1F", "31"},
		{"0o17", "15"},
		{"0b101", "5"},
		{"0777", "511"}, // YAML 1.1 octal, as yaml.v3 reads it
		{"!!int '12'", "12"},
		// floats keep their literal when it is JSON already
		{"1.50", "1.50"},
		{"1e3", "1e3"},
		{"-0.0", "-0.0"},
		{".5", "0.5"},
		{"+1.5", "1.5"},
		{"1.", "1.0"},
		{"09", "9"},
		{"1_000.5", "1000.5"},
		{"!!float 1", "1"},
		// booleans and null
		{"true", "true"},
		{"False", "false"},
		{"TRUE", "true"},
		{"yes", `"yes"`}, // YAML 1.2: a string
		{"~", "null"},
		{"null", "null"},
		{"[~, null, ]", "[null,null]"},
		{"a:", `{"a":null}`},
		// strings
		{`"tab\there \"q\" \\ \u00e9 \u0001"`, `"tab\there \"q\" \\ é \u0001"`},
		{"'line1\n\n  line2'", `"line1\nline2"`},
		{"|\n  a\n  b\n", `"a\nb\n"`},
		{"!!str 123", `"123"`},
		{"'123'", `"123"`},
		{"2001-12-14", `"2001-12-14"`},
		{"2001-12-14t21:59:43.10-05:00", `"2001-12-14t21:59:43.10-05:00"`},
		{"!!timestamp 2001-12-14", `"2001-12-14"`},
		{"!!binary aGVs\n  bG8=", `"aGVsbG8="`},
		{`"\U0001F600 \L"`, "\"\U0001F600 \u2028\""},
		// collections, anchors, aliases
		{"{b: 1, a: [x, {c: d}]}", `{"b":1,"a":["x",{"c":"d"}]}`},
		{"[]", "[]"},
		{"{}", "{}"},
		{"{a: &x [1, 2], b: *x, c: *x}", `{"a":[1,2],"b":[1,2],"c":[1,2]}`},
		{"{&k key: 1, other: *k}", `{"key":1,"other":"key"}`},
		// merge keys: explicit keys win wherever they are, earlier sources
		// win over later ones, merged keys take the place of <<
		{"{base: &b {x: 1, y: 2}, m: {y: 9, <<: *b, z: 3}}", `{"base":{"x":1,"y":2},"m":{"y":9,"x":1,"z":3}}`},
		{"{a: &a {x: 1}, b: &b {x: 2, y: 2}, m: {<<: [*a, *b]}}", `{"a":{"x":1},"b":{"x":2,"y":2},"m":{"x":1,"y":2}}`},
		{"{m: {<<: {x: 1}}}", `{"m":{"x":1}}`},
		{"{a: &a {x: 1}, m: {<<: *a, x: 2}}", `{"a":{"x":1},"m":{"x":2}}`},
		{"{'<<': 1}", `{"<<":1}`},
		{"{2001-12-14: a}", `{"2001-12-14":"a"}`},
		{"{a: &a {<<: &b {x: 1}, y: 2}, m: {<<: *a}}", `{"a":{"x":1,"y":2},"m":{"x":1,"y":2}}`},
	}
	for _, tc := range cases {
		got, errs := convert(t, tc.src)
		if len(errs) > 0 {
			t.Errorf("%q: %v", tc.src, errs)
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestToJSONErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{1: a}", `v.yml:1:2: /v: object keys must be strings, found an integer (1) (quote the key: "1")`},
		{"{true: a}", `v.yml:1:2: /v: object keys must be strings, found a boolean (true) (quote the key: "true")`},
		{"{~: a}", `v.yml:1:2: /v: object keys must be strings, found null (quote the key: "~")`},
		{"{? [a]: b}", `v.yml:1:4: /v: object keys must be strings, found an array`},
		{"{a: 1, b: {c: 2, c: 3}}", `v.yml:1:18: /v/b/c: duplicate key "c" (first defined at line 1)`},
		{"[1, .inf]", `v.yml:1:5: /v/1: .inf has no JSON form`},
		{"{x: [-.Inf]}", `v.yml:1:6: /v/x/0: -.Inf has no JSON form`},
		{".nan", `v.yml:1:1: /v: .nan has no JSON form`},
		{"!!int 1.5", `v.yml:1:1: /v: invalid integer "1.5"`},
		{"!!bool yes", `v.yml:1:1: /v: invalid boolean "yes" (use true or false)`},
		{"!!binary '%%%'", `v.yml:1:1: /v: invalid !!binary data: illegal base64 data at input byte 0`},
		{"!thing x", `v.yml:1:1: /v: unsupported YAML tag !thing (only the core tags (!!str, !!int, !!float, !!bool, !!null, !!binary, !!timestamp) have a JSON form)`},
		{"!!set {a: ~}", `v.yml:1:1: /v: unsupported YAML tag !!set on an object`},
		{"{m: {<<: 1}}", `v.yml:1:10: /v/m: merge key << expects an object or an array of objects, found an integer (1)`},
		{"{m: {<<: [x]}}", `v.yml:1:11: /v/m: merge key << expects objects, found a string ("x")`},
		{"&a [1, *a]", `v.yml:1:8: /v/1: alias *a makes a value contain itself`},
		{"&a {x: 1, <<: *a}", `v.yml:1:15: /v: merge key << makes an object include itself`},
		{"{a: ~, a/b~: 1, a/b~: 2}", `v.yml:1:17: /v/a~1b~0: duplicate key "a/b~" (first defined at line 1)`},
	}
	for _, tc := range cases {
		_, errs := convert(t, tc.src)
		if got := errs.Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestToJSONAliasErrorsReportedOnce checks that a bad value reached through
// several aliases yields one error, not one per alias.
func TestToJSONAliasErrorsReportedOnce(t *testing.T) {
	_, errs := convert(t, "{a: &x {k: .inf}, b: *x, c: [*x, *x]}")
	if len(errs) != 1 || errs[0].Line != 1 || errs[0].Col != 12 {
		t.Errorf("errors = %v", errs)
	}
}

// TestToJSONAliasBomb checks that exponential alias expansion fails with an
// error instead of exhausting memory.
func TestToJSONAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [" + strings.Repeat("\"xxxxxxxxxxxxxxxx\",", 9) + "\"x\"]\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + itoa(i-1))
		}
		b.WriteString("]\n")
	}
	_, errs := convert(t, b.String())
	if len(errs) == 0 || !strings.Contains(errs.Error(), "MiB of JSON") {
		t.Errorf("errors = %v", errs)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestToJSONMatchesYAMLDecoder cross-checks the conversion against
// yaml.v3's own decoding for values both represent the same way.
func TestToJSONMatchesYAMLDecoder(t *testing.T) {
	const src = `
name: demo
count: 3
ratio: 0.25
flags: [true, false, null]
nested:
  list:
    - {a: 1, b: "two"}
    - [x, y, "z"]
  text: |
    multi
    line
  folded: >
    folded
    text
defaults: &d {retries: 2, backoff: 1.5}
job:
  <<: *d
  retries: 5
quoted: "a \"quote\" and a \\ backslash"
unicode: "héllo wörld ✓"
empty: ""
`
	got, errs := convert(t, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var fromYAML any
	if err := yaml.Unmarshal([]byte(src), &fromYAML); err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("conversion differs from yaml.v3:\n got %s\nwant %s", got, want)
	}
}

func TestIsJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "10": true, "1.5": true, "1e9": true, "1E+9": true, "-1.5e-3": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "+1": false, "1e": false, "0x1": false, "1_0": false,
	} {
		if got := isJSONNumber(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v", s, got)
		}
	}
}
