package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/cases"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestStringMatchers(t *testing.T) {
	runCases(t, []matchCase{
		{name: "icontains ascii", key: "icontains", actual: `"Operation SUCCESS"`, arg: `"success"`, pass: true},
		{name: "icontains accented", key: "icontains", actual: `"ÉCOLE NORMALE"`, arg: `"école"`, pass: true},
		{name: "icontains full folding", key: "icontains", actual: `"GROSSE STRASSE"`, arg: `"straße"`, pass: true},
		{name: "icontains greek final sigma", key: "icontains", actual: `"ΣΊΣΥΦΟΣ"`, arg: `"σίσυφος"`, pass: true},
		{name: "icontains fails", key: "icontains", actual: `"abc"`, arg: `"XYZ"`, pass: false,
			fields: map[string]string{"expected": `"XYZ"`, "actual": `"abc"`},
			substr: map[string]string{"note": "ignoring case"}},
		{name: "icontains on JSON text", key: "icontains", actual: `{"Status":"OK"}`, arg: `"status"`, pass: true},
		{name: "icontains notes JSON text", key: "icontains", actual: `{"a":1}`, arg: `"b"`, pass: false,
			substr: map[string]string{"note": "compact JSON text"}},

		{name: "starts-with", key: "starts-with", actual: `"data:image/png;base64,AAAA"`, arg: `"data:image/png;base64,"`, pass: true},
		{name: "starts-with fails", key: "starts-with", actual: `"xdata"`, arg: `"data"`, pass: false,
			fields: map[string]string{"expected": `"data"`, "actual": `"xdata"`}, absent: []string{"note"}},
		{name: "starts-with number text", key: "starts-with", actual: `12345`, arg: `"123"`, pass: true},
		{name: "starts-with object text is compact", key: "starts-with", actual: "{ \"a\" :\n 1 }", arg: `"{\"a\":1"`, pass: true},

		{name: "regex anchored", key: "regex", actual: `"ping from acct_demo"`, arg: `"^ping from acct_"`, pass: true},
		{name: "regex anywhere", key: "regex", actual: `"xx abc123 yy"`, arg: `"[a-z]+\\d+"`, pass: true},
		{name: "regex fails with match null", key: "regex", actual: `"pong from svc_demo"`, arg: `"^ping from acct_"`, pass: false,
			fields: map[string]string{"expected": `"^ping from acct_"`, "actual": `"pong from svc_demo"`, "match": `null`},
			absent: []string{"note"}},
		{name: "regex on JSON text", key: "regex", actual: `{"a": 1}`, arg: `"\"a\":1"`, pass: true},
		{name: "regex on number", key: "regex", actual: `404`, arg: `"^4\\d\\d$"`, pass: true},
		{name: "regex unicode class", key: "regex", actual: `"日本語"`, arg: `"^\\p{Han}+$"`, pass: true},
	})
}

func TestRegexInvalidPatternInMatch(t *testing.T) {
	h := serve(t)
	r := h.Match("regex", `"x"`, `"(unclosed"`)
	if r.ErrorKind != plugintest.ErrorKindInvalidArgument {
		t.Fatalf("kind = %s, want invalid_argument (result %+v)", r.ErrorKind, r)
	}
	if !strings.Contains(r.Error, "regex") || !strings.Contains(r.Error, "missing closing )") {
		t.Errorf("error = %q", r.Error)
	}
}

func TestBadArgumentInMatchIsInvalidArgument(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ key, arg string }{
		{"icontains", `42`}, {"starts-with", `null`}, {"contains-any", `"x"`}, {"levenshtein", `{"value":"a"}`}, {"exact", ``},
	} {
		r := h.Match(tc.key, `"x"`, tc.arg)
		if r.ErrorKind != plugintest.ErrorKindInvalidArgument || r.Pass {
			t.Errorf("%s %s: got %+v, want an invalid_argument error", tc.key, tc.arg, r)
		}
	}
}

func TestArgumentErrorsWrap(t *testing.T) {
	f := newFamily()
	err := f.CheckArgument("regex", []byte(`"("`))
	if !errors.Is(err, sdk.ErrInvalidArgument) {
		t.Errorf("regex error %v does not wrap ErrInvalidArgument", err)
	}
}

func TestBadActualIsInternalError(t *testing.T) {
	h := serve(t)
	r := h.Match("exact", ``, `1`)
	if r.ErrorKind != plugintest.ErrorKindInternal || !strings.Contains(r.Error, "actual value") {
		t.Errorf("got %+v", r)
	}
}

// TestFoldASCIIIsCaseFolding: the ASCII shortcut of fold gives what full
// Unicode case folding gives, for every ASCII byte.
func TestFoldASCIIIsCaseFolding(t *testing.T) {
	var all []byte
	for c := 0; c < 0x80; c++ {
		all = append(all, byte(c))
	}
	for _, s := range []string{"", "already lower", "MiXeD Case 123", string(all)} {
		if got, want := fold(s), cases.Fold().String(s); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
	}
	// Not ASCII: the general path, where U+212A (Kelvin) folds to "k".
	if got := fold("\u212a"); got != "k" {
		t.Errorf("fold(Kelvin sign) = %q", got)
	}
}

// TestContainsFoldASCIIAgreesWithFolding: the in-place search finds
// exactly what strings.Contains finds in the folded copies, for ASCII
// texts and needles of every case mix, position and length (empty ones
// too), and declines non-ASCII input and searches past its bound.
func TestContainsFoldASCIIAgreesWithFolding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := "aAbB-1 zZ"
	str := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for i := range 20000 {
		s := str(rng.IntN(30))
		sub := str(rng.IntN(6))
		if i%3 == 0 && len(s) > 0 {
			lo := rng.IntN(len(s))
			sub = strings.ToUpper(s[lo : lo+rng.IntN(len(s)-lo+1)])
		}
		found, ok := containsFoldASCII(s, sub)
		if !ok {
			t.Fatalf("%q in %q declined", sub, s)
		}
		if want := strings.Contains(fold(s), fold(sub)); found != want {
			t.Fatalf("%q in %q: %v, folded copies say %v", sub, s, found, want)
		}
	}
	for _, c := range [][2]string{{"STRASSE", "straße"}, {"straße", "SS"}, {strings.Repeat("a", 70000), "ab"}} {
		if _, ok := containsFoldASCII(c[0], c[1]); ok {
			t.Errorf("%.20q in %.20q: not declined", c[1], c[0])
		}
	}
}

// TestRegexFailuresShareAnUnchangedExtra: every regex failure carries the
// one shared {"match": null}, and judging failures through the SDK (which
// encodes it after Match returns) leaves it as it was, so no failure ever
// sees another's fields.
func TestRegexFailuresShareAnUnchangedExtra(t *testing.T) {
	h := serve(t)
	for i := range 3 {
		r := h.Match("regex", fmt.Sprintf(`"pong %d"`, i), `"^ping"`)
		if got := h.Failure(r); len(got) == 0 || string(got["match"]) != "null" {
			t.Fatalf("failure %d: %s", i, r.Failure)
		}
	}
	if len(noMatchExtra) != 1 || noMatchExtra["match"] != nil {
		t.Fatalf("the shared Extra became %v", noMatchExtra)
	}
}
