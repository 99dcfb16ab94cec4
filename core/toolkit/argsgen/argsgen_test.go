package argsgen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const schemaText = `{"type":"object","properties":{
  "name":{"type":"string","minLength":8},
  "kind":{"type":"string","enum":["b","a"]},
  "count":{"type":"integer","minimum":5,"maximum":9},
  "duration":{"type":"number","default":10},
  "tags":{"type":"array","items":{"type":"string"},"minItems":2},
  "opt":{"type":"string"}
},"required":["name","kind","count","tags"]}`

func TestValidHonoursTheSchema(t *testing.T) {
	s, err := Parse(json.RawMessage(schemaText))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(Valid(s))
	// name padded to minLength, the first enum value, the minimum, two
	// items, the slow default replaced by the smallest allowed value, and
	// the optional property left out.
	want := `{"count":5,"duration":1,"kind":"b","name":"namexxxx","tags":["tags","tags"]}`
	if string(got) != want {
		t.Errorf("Valid = %s\nwant    %s", got, want)
	}
}

func TestCasesAreReproducible(t *testing.T) {
	s, _ := Parse(json.RawMessage(schemaText))
	a, b := Cases(s, 42, 30), Cases(s, 42, 30)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different cases")
	}
	if len(a) != 30 || a[0].Label != "null arguments" || string(a[0].Arguments) != "null" || a[1].Arguments != nil {
		t.Errorf("the structural cases must come first: %+v", a[:2])
	}
	if reflect.DeepEqual(a, Cases(s, 43, 30)) {
		t.Error("another seed gave the same choice")
	}
	all := Cases(s, 1, 0)
	labels := map[string]bool{}
	for _, c := range all {
		labels[c.Label] = true
		if c.Arguments != nil && !json.Valid(c.Arguments) {
			t.Errorf("%s: invalid JSON", c.Label)
		}
	}
	for _, want := range []string{"name: left out", "count: below minimum", "count: above maximum", "name: huge string",
		"name: wrong type (number)", "tags: deep nesting", "extra property", "name: injection 1"} {
		if !labels[want] {
			t.Errorf("the catalogue lacks %q", want)
		}
	}
	more := Cases(s, 1, len(all)+5)
	if len(more) != len(all)+5 || !strings.HasPrefix(more[len(more)-1].Label, "random ") {
		t.Errorf("runs beyond the catalogue should add random cases, got %d", len(more))
	}
}

func TestParseRejectsBadSchemas(t *testing.T) {
	if _, err := Parse(json.RawMessage(`{"type":`)); err == nil {
		t.Error("want an error for a truncated schema")
	}
	if s, err := Parse(nil); err != nil || len(Valid(s)) != 0 {
		t.Errorf("no schema means empty arguments: %v", err)
	}
}
