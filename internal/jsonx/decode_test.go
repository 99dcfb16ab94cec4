package jsonx

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeCorpus covers every shape and escape the fast parser handles.
var decodeCorpus = []string{
	`null`, `true`, `false`, `0`, `-1.5e+10`, `12345678901234567890`, `"plain"`, `""`,
	`{}`, `[]`, ` { "a" : [ 1 , 2.0 , { "b" : null } ] , "c" : "d" } `,
	`"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u65e5 \ud83d\ude00"`, `"lone \ud800 high"`, `"lone \udc00 low"`,
	`"\ud800\u0041"`, `"raw é 日本 🙂"`, "\"bad \xff\xfe utf8\"", "\"mixed \xff and \\n\"",
	`{"dup":1,"dup":2}`, `[[[[[]]]]]`, `{"k\u0041":"v"}`,
	`{"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}`,
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, in := range decodeCorpus {
		got, err := Decode(json.RawMessage(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		want, err := DecodeSlow(json.RawMessage(in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", in, got, want)
		}
	}
}

func TestDecodeReportsInvalidInputLikeEncodingJSON(t *testing.T) {
	for _, in := range []string{`{"a":`, `[1,]`, `nope`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001)} {
		_, err := Decode(json.RawMessage(in))
		_, want := DecodeSlow(json.RawMessage(in))
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%.20q: err %v, want %v", in, err, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, in := range decodeCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := Decode(in)
		want, werr := DecodeSlow(in)
		if !json.Valid(in) {
			return // both take the slow path
		}
		if err != nil || werr != nil {
			t.Fatalf("valid input %q: %v / %v", in, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", in, got, want)
		}
	})
}
