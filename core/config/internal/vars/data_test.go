package vars

import (
	"strings"
	"testing"
)

func TestDataRefs(t *testing.T) {
	for _, tc := range []struct {
		in    string
		paths []string
		whole bool
		out   string
	}{
		{"plain", nil, false, "plain"},
		{"${data.a}", []string{"a"}, true, "<a>"},
		{"x ${data.a} and ${data.b.c}!", []string{"a", "b.c"}, false, "x <a> and <b.c>!"},
		{"${data.}", nil, false, "${data.}"},
		{"${data.a-b}", []string{"a-b"}, true, "<a-b>"},
		{"${capture:x} ${data.a}", []string{"a"}, false, "${capture:x} <a>"},
	} {
		refs, whole := DataRefs(tc.in)
		var paths []string
		for _, r := range refs {
			paths = append(paths, strings.Join(r.Path, "."))
		}
		if strings.Join(paths, "|") != strings.Join(tc.paths, "|") || whole != tc.whole {
			t.Errorf("%q: paths %v whole %v, want %v %v", tc.in, paths, whole, tc.paths, tc.whole)
		}
		got := ReplaceDataRefs(tc.in, refs, func(r DataRef) string { return "<" + strings.Join(r.Path, ".") + ">" })
		if got != tc.out {
			t.Errorf("%q: replaced %q, want %q", tc.in, got, tc.out)
		}
	}
}
