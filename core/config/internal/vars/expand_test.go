package vars

import (
	"slices"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	vars := map[string]string{"A": "alpha", "EMPTY": "", "B_2": "beta"}
	get := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	cases := []struct {
		in, out    string
		unresolved []string
		missing    []string
		err        string
	}{
		{in: "plain", out: "plain"},
		{in: "${A}/$B_2", out: "alpha/beta"},
		{in: "$A.txt", out: "alpha.txt"},
		{in: "${NOPE}x$NOPE2", out: "x", unresolved: []string{"NOPE", "NOPE2"}},
		{in: "${NOPE:-dflt}|${EMPTY:-e}|${A:-z}", out: "dflt|e|alpha"},
		{in: "${NOPE:-}", out: ""},
		{in: "${NOPE:?needed}", out: "", missing: []string{"NOPE"}},
		{in: "${EMPTY:?}", out: "", missing: []string{"EMPTY"}},
		{in: "$$A costs $$5", out: "$A costs $5"},
		{in: "^ok$", out: "^ok$"},
		{in: "a $ b $", out: "a $ b $"},
		{in: "$1", out: "$1"},
		{in: "${capture:id} and ${step.out.name}", out: "${capture:id} and ${step.out.name}"},
		{in: "${A", err: `has no closing "}"`},
		{in: "${}", err: "names no variable"},
		{in: "${A:+x}", err: "write :-default or :?message"},
		{in: "${a-b}", err: `invalid variable name "a-b"`},
		{in: "${capture:}", err: "names no capture"},
	}
	for _, tc := range cases {
		x, err := Expand(tc.in, get, true)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Expand(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Expand(%q): %v", tc.in, err)
			continue
		}
		var missing []string
		for _, m := range x.Missing {
			missing = append(missing, m.Name)
		}
		if x.Out != tc.out || !slices.Equal(x.Unresolved, tc.unresolved) || !slices.Equal(missing, tc.missing) {
			t.Errorf("Expand(%q) = %q unresolved %v missing %v, want %q %v %v",
				tc.in, x.Out, x.Unresolved, missing, tc.out, tc.unresolved, tc.missing)
		}
	}
}
