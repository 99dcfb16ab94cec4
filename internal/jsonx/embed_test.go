package jsonx

import (
	"strings"
	"testing"
)

// nested is depth nested arrays.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestJSONDepth(t *testing.T) {
	cases := map[string]int{
		`1`:                    0,
		`{"a":[1,{"b":2}]}`:    3,
		`{"a":"[[[[\"]]]"}`:    1,
		`"\\"`:                 0,
		nested(9_990):          9_990,
		`{"x":` + nested(5):    6, // unterminated: still measured
		`{"a":{}} {"b":[[1]]}`: 3,
	}
	for in, want := range cases {
		if got := Depth([]byte(in)); got != want {
			t.Errorf("Depth(%.40q) = %d, want %d", in, got, want)
		}
	}
}
