package jsontext

import (
	"encoding/json"
	"testing"
)

func TestReadable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"\u003cb\u003e \u0026 x"}`, `{"a":"<b> & x"}`},
		{`"na\u00efve \u2713 \ud83d\ude00"`, `"naïve ✓ 😀"`},
		{`"\"q\" \\u003c \\ \n \u0007 \u2028 \ud800 x"`, `"\"q\" \\u003c \\ \n \u0007 \u2028 \ud800 x"`},
		{`{"k\u003e":1e3}`, `{"k>":1e3}`},
		{`plain`, `plain`},
		{`"\u00zz"`, `"\u00zz"`},
		{`"unterminated \u003c`, `"unterminated \u003c`},
	} {
		got := string(Readable([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("Readable(%s) = %s, want %s", tc.in, got, tc.want)
		}
		// Whatever it changed, it means the same.
		var a, b any
		if json.Unmarshal([]byte(tc.in), &a) == nil {
			if err := json.Unmarshal([]byte(got), &b); err != nil {
				t.Errorf("Readable(%s) is no longer JSON: %v", tc.in, err)
			} else if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
				t.Errorf("Readable(%s) changed the value: %s vs %s", tc.in, ja, jb)
			}
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
