package target

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// decode decodes JSON the way the runner does, keeping numbers exact.
func decode(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

const doc = `{
  "result": {
    "content": [
      {"type": "text", "text": "hello"},
      {"type": "text", "text": "{\"id\":42}"}
    ],
    "structuredContent": {"sum": 5, "big": 12345678901234567890},
    "odd.key": "dotted",
    "items": [1, 2, 3],
    "empty": {},
    "nothing": null,
    "isError": false
  }
}`

func TestExtract(t *testing.T) {
	root := decode(t, doc)
	tests := []struct {
		expr string
		want string // JSON of the expected value
	}{
		{"result.content[0].text", `"hello"`},
		{"result.content[1].text", `"{\"id\":42}"`},
		{"result.content[-1].type", `"text"`},
		{"result.content[-2].text", `"hello"`},
		{"result.structuredContent.sum", `5`},
		{"result.structuredContent.big", `12345678901234567890`},
		{`result["odd.key"]`, `"dotted"`},
		{"result.items[-1]", `3`},
		{"result.items.length", `3`},
		{"result.content.length", `2`},
		{"result.nothing", `null`},
		{"result.isError", `false`},
		{"result.empty", `{}`},
		{"result.items", `[1,2,3]`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := MustParse(tt.expr).Extract(root)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			want := decode(t, tt.want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %#v, want %#v", got, want)
			}
		})
	}
}

func TestExtractWholeResult(t *testing.T) {
	root := decode(t, doc)
	got, err := MustParse("result").Extract(root)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := got.(map[string]any)
	if !ok || len(m) != 7 {
		t.Fatalf("result = %#v", got)
	}
	if v, _ := (Path{}).Extract(root); !reflect.DeepEqual(v, root) {
		t.Fatal("the zero path should return the root")
	}
}

func TestExtractBigIntegerSurvives(t *testing.T) {
	root := decode(t, doc)
	got, err := MustParse("result.structuredContent.big").Extract(root)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := got.(json.Number); !ok || n.String() != "12345678901234567890" {
		t.Fatalf("big integer came back as %#v", got)
	}
}

func TestExtractErrors(t *testing.T) {
	root := decode(t, doc)
	tests := []struct {
		expr     string
		msg      string
		mismatch bool
	}{
		{"result.content[3]", "result.content[3]: index 3 out of range (length 2)", false},
		{"result.content[-3]", "result.content[-3]: index -3 out of range (length 2)", false},
		{"result.structuredContent.total", `result.structuredContent.total: key "total" not found (keys: big, sum)`, false},
		{"result.missing.deeper", `result.missing: key "missing" not found (keys: content, empty, isError, items, nothing, "odd.key", structuredContent)`, false},
		{"result.empty.x", `result.empty.x: key "x" not found (the object is empty)`, false},
		{"nope", `nope: key "nope" not found (keys: result)`, false},
		{"result.content[0].text.x", `result.content[0].text.x: cannot take key "x" of a string "hello"`, true},
		{"result.content[0].text[0]", `result.content[0].text[0]: cannot take index [0] of a string "hello"`, true},
		{"result.structuredContent[0]", `result.structuredContent[0]: cannot take index [0] of an object (keys: big, sum)`, true},
		{"result.content.text", `result.content.text: cannot take key "text" of an array of length 2; use an index such as [0]`, true},
		{"result.nothing.x", `result.nothing.x: cannot take key "x" of null`, true},
		{"result.isError[1]", `result.isError[1]: cannot take index [1] of the boolean false`, true},
		{"result.items[0].v", `result.items[0].v: cannot take key "v" of the number 1`, true},
		{`result["odd.key"]["a b"]`, `result["odd.key"]["a b"]: cannot take key "a b" of a string "dotted"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := MustParse(tt.expr).Extract(root)
			if err == nil {
				t.Fatal("Extract succeeded, want error")
			}
			if err.Error() != tt.msg {
				t.Errorf("message:\n got %s\nwant %s", err, tt.msg)
			}
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("error does not wrap ErrNotFound")
			}
			if got := errors.Is(err, ErrTypeMismatch); got != tt.mismatch {
				t.Errorf("errors.Is(err, ErrTypeMismatch) = %v, want %v", got, tt.mismatch)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{"short", `a string "short"`},
		{strings.Repeat("é", 50), `a string "` + strings.Repeat("é", 40) + `…"`},
		{json.Number("1e3"), "the number 1e3"},
		{2.5, "the number 2.5"},
		{true, "the boolean true"},
		{map[string]any{"a": 1}, "an object with 1 key"},
		{map[string]any{}, "an object with 0 keys"},
		{[]any{1, 2}, "an array of length 2"},
		{struct{}{}, "a value of Go type struct {}"},
	}
	for _, tt := range tests {
		if got := Describe(tt.v); got != tt.want {
			t.Errorf("Describe(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestDescribeKeysBounded(t *testing.T) {
	m := map[string]any{}
	for _, k := range strings.Split("a b c d e f g h i j k l", " ") {
		m[k] = 1
	}
	_, err := MustParse("zz").Extract(m)
	want := `zz: key "zz" not found (keys: a, b, c, d, e, f, g, h, i, j, … 2 more)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
