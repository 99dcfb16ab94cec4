package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestCheckArgument(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct {
		key, arg string
		want     string // "" means accepted
	}{
		{"exact", `{"any":["json",1,null]}`, ""},
		{"contains", `null`, ""},
		{"contains-any", `[]`, ""},
		{"contains-all", `[]`, ""},
		{"levenshtein", `{"value":"abc","max":2}`, ""},
		{"regex", `"^a(b|c)+$"`, ""},
		{"exact", ``, "exact: an argument is required"},
		{"icontains", `42`, "icontains: expected a string argument, got a number"},
		{"icontains", `null`, "icontains: expected a string argument, got null"},
		{"starts-with", `["a"]`, "starts-with: expected a string argument, got an array"},
		{"regex", `5`, "regex: expected a string argument, got a number"},
		{"regex", `"(a"`, `regex: invalid pattern "(a": error parsing regexp: missing closing )`},
		{"regex", `"(a)\\1"`, `regex: invalid pattern "(a)\\1": error parsing regexp: invalid escape sequence`},
		{"contains-any", `"approved"`, "contains-any: expected an array of values, got a string"},
		{"contains-all", `{"a":1}`, "contains-all: expected an array of values, got an object"},
		{"levenshtein", `"abc"`, "levenshtein: expected an object {value: string, max: integer}, got a string"},
		{"levenshtein", `{"value":"a"}`, `levenshtein: missing field "max"`},
		{"levenshtein", `{"max":1}`, `levenshtein: missing field "value"`},
		{"levenshtein", `{"value":1,"max":1}`, `levenshtein: field "value" must be a string, got a number`},
		{"levenshtein", `{"value":"a","max":-1}`, `levenshtein: field "max" must be a non-negative integer, got -1`},
		{"levenshtein", `{"value":"a","max":1.5}`, `levenshtein: field "max" must be a non-negative integer, got 1.5`},
		{"levenshtein", `{"value":"a","max":"2"}`, `levenshtein: field "max" must be a non-negative integer, got a string`},
		{"levenshtein", `{"value":"a","max_distance":2}`, `levenshtein: unknown field "max_distance" (did you mean "max"?)`},
		{"levenshtein", `{"value":"a","max":1,"case":true}`, `levenshtein: unknown field "case" (the fields are value and max)`},
		{"nope", `1`, `has no matcher "nope"`},
	} {
		if tc.want == "" {
			if err := h.Check(tc.key, tc.arg); err != nil {
				t.Errorf("%s %s: rejected: %s", tc.key, tc.arg, err)
			}
			continue
		}
		if got := h.MustRefuse(tc.key, tc.arg, tc.want); tc.key != "nope" && !strings.HasPrefix(got, "invalid matcher argument: ") {
			t.Errorf("%s %s: error %q does not start with the invalid-argument marker", tc.key, tc.arg, got)
		}
	}
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "text" || d.Version != "0.1.0" {
		t.Errorf("name/version = %s %s", d.Name, d.Version)
	}
	want := []string{"contains", "contains-all", "contains-any", "exact", "icontains", "levenshtein", "regex", "starts-with"}
	if len(d.Components) != 1 || d.Components[0].Kind != sdk.KindMatcher || !reflect.DeepEqual(d.Components[0].Keys, want) {
		t.Errorf("components = %+v", d.Components)
	}
}

// TestBatch sends a batch large enough for the SDK to evaluate it in
// parallel and checks every result lands on its own item.
func TestBatch(t *testing.T) {
	h := serve(t)
	var items []plugintest.MatchItem
	for i := 0; i < 300; i++ {
		actual := fmt.Sprintf(`"item %d"`, i)
		var key, arg string
		switch i % 4 {
		case 0:
			key, arg = "exact", actual
		case 1:
			key, arg = "regex", `"^item \\d+$"`
		case 2:
			key, arg = "levenshtein", fmt.Sprintf(`{"value":"item %d","max":0}`, i+1)
		case 3:
			key, arg = "contains-any", `["nothing"]`
		}
		items = append(items, plugintest.MatchItem{ID: uint64(1000 + i), Key: key, Actual: json.RawMessage(actual), Argument: json.RawMessage(arg)})
	}
	res, err := h.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		wantPass := i%4 < 2
		if r.ID != uint64(1000+i) || r.Pass != wantPass || r.Error != "" {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
}
