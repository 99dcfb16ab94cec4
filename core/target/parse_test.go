package target

import (
	"errors"
	"reflect"
	"testing"
)

func key(k string) Segment { return Segment{Key: k} }
func idx(i int) Segment    { return Segment{Index: i, IsIndex: true} }

func TestParse(t *testing.T) {
	tests := []struct {
		expr string
		want []Segment
		str  string // canonical String(); empty means same as expr
	}{
		{expr: "result", want: []Segment{key("result")}},
		{expr: "result.content[0].text", want: []Segment{key("result"), key("content"), idx(0), key("text")}},
		{expr: "result.structuredContent.sum", want: []Segment{key("result"), key("structuredContent"), key("sum")}},
		{expr: `result["odd.key"]`, want: []Segment{key("result"), key("odd.key")}},
		{expr: `result['odd.key']`, want: []Segment{key("result"), key("odd.key")}, str: `result["odd.key"]`},
		{expr: `result["plain"]`, want: []Segment{key("result"), key("plain")}, str: "result.plain"},
		{expr: "result.items[-1]", want: []Segment{key("result"), key("items"), idx(-1)}},
		{expr: "a[0][12][-3]", want: []Segment{key("a"), idx(0), idx(12), idx(-3)}},
		{expr: "[2].x", want: []Segment{idx(2), key("x")}},
		{expr: `["a b"].c`, want: []Segment{key("a b"), key("c")}},
		{expr: `x["say \"hi\"\n"]`, want: []Segment{key("x"), key("say \"hi\"\n")}},
		{expr: `x['it\'s \\ here']`, want: []Segment{key("x"), key(`it's \ here`)}, str: `x["it's \\ here"]`},
		{expr: `x[""]`, want: []Segment{key("x"), key("")}},
		{expr: "tool_calls.length", want: []Segment{key("tool_calls"), key("length")}},
		{expr: "headers.content-type.$schema", want: []Segment{key("headers"), key("content-type"), key("$schema")}},
		{expr: "nodes.1.output", want: []Segment{key("nodes"), key("1"), key("output")}},
		{expr: "résumé.naïve", want: []Segment{key("résumé"), key("naïve")}},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := Parse(tt.expr)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.expr, err)
			}
			if got := p.Segments(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Parse(%q) segments = %#v, want %#v", tt.expr, got, tt.want)
			}
			wantStr := tt.str
			if wantStr == "" {
				wantStr = tt.expr
			}
			if got := p.String(); got != wantStr {
				t.Errorf("String() = %q, want %q", got, wantStr)
			}
			again, err := Parse(p.String())
			if err != nil {
				t.Fatalf("re-parse of %q: %v", p.String(), err)
			}
			if !reflect.DeepEqual(again.Segments(), p.Segments()) {
				t.Errorf("round trip changed the path: %#v vs %#v", again.Segments(), p.Segments())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		expr string
		col  int
		msg  string
	}{
		{".result", 1, `invalid target path ".result": column 1: path cannot start with "."; write the first key without it`},
		{"result.", 8, `invalid target path "result.": column 8: expected a key after ".", found end of path`},
		{"result..x", 8, `invalid target path "result..x": column 8: expected a key after ".", found '.'`},
		{"result.content[", 15, `invalid target path "result.content[": column 15: unclosed "["`},
		{"result.content[0", 15, `invalid target path "result.content[0": column 15: unclosed "["`},
		{"result.content[x]", 16, `invalid target path "result.content[x]": column 16: expected an index or a quoted key after "[", found 'x'`},
		{"result.content[*]", 16, `invalid target path "result.content[*]": column 16: wildcards are not supported; use an index such as [0] or [-1]`},
		{"result.content[0x]", 17, `invalid target path "result.content[0x]": column 17: expected "]", found 'x'`},
		{"result.content[-]", 17, `invalid target path "result.content[-]": column 17: expected digits after "-", found ']'`},
		{"result.content[ 0]", 16, `invalid target path "result.content[ 0]": column 16: expected an index or a quoted key after "[", found whitespace ' '`},
		{`result["abc]`, 8, `invalid target path "result[\"abc]": column 8: unterminated quoted key`},
		{`result["\q"]`, 8, `invalid target path "result[\"\\q\"]": column 8: invalid quoted key "\q": use JSON string escapes`},
		{`result['a\q']`, 10, `invalid target path "result['a\\q']": column 10: invalid escape in single-quoted key: only \' and \\ are allowed`},
		{"result.a b", 9, `invalid target path "result.a b": column 9: expected "." or "[" after "result.a", found whitespace ' '`},
		{"résumé x", 7, `invalid target path "résumé x": column 7: expected "." or "[" after "résumé", found whitespace ' '`},
		{"a[99999999999999999999]", 3, `invalid target path "a[99999999999999999999]": column 3: index 99999999999999999999 is out of range`},
		{"a]", 2, `invalid target path "a]": column 2: expected "." or "[" after "a", found ']'`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := Parse(tt.expr)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want error", tt.expr)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not *ParseError", err)
			}
			if pe.Column != tt.col {
				t.Errorf("column = %d, want %d", pe.Column, tt.col)
			}
			if err.Error() != tt.msg {
				t.Errorf("message:\n got %s\nwant %s", err.Error(), tt.msg)
			}
		})
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("MustParse of a bad path did not panic")
		}
	}()
	MustParse("a[")
}

func TestNewPathCopies(t *testing.T) {
	segs := []Segment{key("a"), idx(1)}
	p := NewPath(segs...)
	segs[0].Key = "changed"
	if p.String() != "a[1]" {
		t.Fatalf("NewPath aliases its input: %s", p)
	}
	if p.Len() != 2 {
		t.Fatalf("Len = %d", p.Len())
	}
	if (Path{}).String() != "" {
		t.Fatal("zero path should render empty")
	}
}

func TestEmptyTargetIsTheWholeEnvelope(t *testing.T) {
	root := map[string]any{"result": map[string]any{"isError": true}}
	for _, expr := range []string{"", "  "} {
		p, err := Parse(expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", expr, err)
		}
		got, err := p.Extract(root)
		if err != nil || got.(map[string]any)["result"] == nil {
			t.Fatalf("Extract = %v, %v", got, err)
		}
	}
}
