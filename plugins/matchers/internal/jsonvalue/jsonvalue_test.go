package jsonvalue

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestEqualNumbersByValue(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`100`, `1e2`, true},
		{`-0`, `0.0`, true},
		{`0.1`, `1E-1`, true},
		{`1.5`, `15E-1`, true},
		{`12345678901234567891`, `12345678901234567890`, false},
		{`9007199254740993`, `9007199254740992`, false},
		{`1e4096`, `10e4095`, true},
		{`1e-4096`, `0.1e-4095`, true},
		// Past MaxExponent numbers are equal only as the same text.
		{`1e999999`, `1e999999`, true},
		{`1e999999`, `1e999998`, false},
		{`1e4097`, `10e4096`, false},
		{`1e99999999999`, `1e99999999999`, true},
		{`{"a":[1,{"b":null}]}`, `{"a":[1.0,{"b":null}]}`, true},
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`null`, `false`, false},
		{`"1"`, `1`, false},
		{`[]`, `{}`, false},
	} {
		a, err := Decode([]byte(tc.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Decode([]byte(tc.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := Equal(a, b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", tc.a, tc.b, got)
		}
		if got := Equal(b, a); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", tc.b, tc.a, got)
		}
	}
}

func TestCanonicalNumber(t *testing.T) {
	same := [][2]string{{"1", "1.000"}, {"10", "1e1"}, {"0.001", "1E-3"}, {"-2.50", "-25e-1"}, {"0", "-0e5"}, {"120", "1.2e+2"}}
	for _, p := range same {
		a, aok := canonicalNumber(p[0])
		b, bok := canonicalNumber(p[1])
		if !aok || !bok || a != b {
			t.Errorf("%s and %s: %+v %+v", p[0], p[1], a, b)
		}
	}
	for _, bad := range []string{"1e99999999999", "1e4097", "1e-4097", "", "-", ".5", "1e", "0x10", "1.2.3", "+1"} {
		if _, ok := canonicalNumber(bad); ok {
			t.Errorf("%q should not be read", bad)
		}
	}
	if NumbersEqual("1e99999999999", "1e99999999998") {
		t.Error("unreadable numbers compare by text")
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any // nil with err set
		err  string
	}{
		{in: `"hi"`, want: "hi"},
		{in: " \n\"hi\"\t ", want: "hi"},
		{in: `"a\u00e9\n"`, want: "aé\n"},
		{in: `12345678901234567891`, want: json.Number("12345678901234567891")},
		{in: `null`, want: nil},
		{in: `"a" "b"`, err: "unexpected data after the value"},
		{in: `"a",`, err: "unexpected data after the value"},
		{in: `1 2`, err: "unexpected data after the value"},
		{in: `"abc`, err: "unexpected EOF"},
		{in: ``, err: "EOF"},
		{in: `{"a":}`, err: "invalid character '}'"},
		// Only JSON white space surrounds a value.
		{in: "\u00a0\"x\"", err: "invalid character"},
	} {
		got, err := Decode([]byte(tc.in))
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Decode(%q) error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("Decode(%q): %v", tc.in, err)
		case !Equal(got, tc.want):
			t.Errorf("Decode(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
	v, err := Decode([]byte(`{"n":[1.50,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := v.(map[string]any)["n"].([]any)[0]; n != json.Number("1.50") {
		t.Errorf("number decoded as %#v, want json.Number(\"1.50\")", n)
	}
}

// TestDecodeStringErrorsMatchDecoder checks the string fast path changes
// nothing: a string that does not unmarshal gets the Decoder's error.
func TestDecodeStringErrorsMatchDecoder(t *testing.T) {
	for _, in := range []string{`"abc`, `"a" "b"`, `"\x"`, `"a"]`, "\"a\nb\""} {
		_, fast := Decode([]byte(in))
		var v any
		dec := json.NewDecoder(strings.NewReader(in))
		slow := dec.Decode(&v)
		if slow == nil {
			slow = errTrailingData
		}
		if fast == nil || fast.Error() != slow.Error() {
			t.Errorf("%q: Decode error %v, Decoder error %v", in, fast, slow)
		}
	}
}

func TestEncode(t *testing.T) {
	v, err := Decode([]byte(`{"z":"<b>&</b>","a":[1.50,{"y":null,"x":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Compact(v)); got != `{"a":[1.50,{"x":true,"y":null}],"z":"<b>&</b>"}` {
		t.Errorf("Compact = %s", got)
	}
	want := "{\n  \"a\": [\n    1.50,\n    {\n      \"x\": true,\n      \"y\": null\n    }\n  ],\n  \"z\": \"<b>&</b>\"\n}"
	if got := Pretty(v); got != want {
		t.Errorf("Pretty = %s", got)
	}
	if _, err := Encode(make(chan int), ""); err == nil {
		t.Error("Encode of a channel succeeded")
	}
	if got := string(Compact(func() {})); !strings.HasPrefix(got, `"0x`) {
		t.Errorf("Compact of a func = %s, want its fmt form as a string", got)
	}
}

func TestDescribe(t *testing.T) {
	for v, want := range map[any]string{
		nil: "null", true: "a boolean", json.Number("1"): "a number", 1.5: "a number", "s": "a string", 3: "a int",
	} {
		if got := Describe(v); got != want {
			t.Errorf("Describe(%#v) = %q, want %q", v, got, want)
		}
	}
	if Describe([]any{}) != "an array" || Describe(map[string]any{}) != "an object" {
		t.Error("containers misnamed")
	}
}

// decodeSlow is Decode without the fast paths: the Decoder alone.
func decodeSlow(raw []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil || err.Error() != "EOF" {
		return nil, errTrailingData
	}
	return v, nil
}

// scalarCorpus holds values the fast paths must read exactly as the
// Decoder does, and near misses it must leave to the Decoder.
var scalarCorpus = []string{
	`""`, `"hi"`, ` "hi" `, `"héllo ✓"`, "\"a\xffb\"", "\"a\x01\"", `"a\"b"`, `"a\\b"`, `"\u00e9"`, `"`, `"a`, `a"`, `"a""`,
	`0`, `-0`, `1`, `-1`, `10`, `01`, `-`, `1.`, `.5`, `1.5`, `1.50`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-01`, `0.0e0`,
	`12345678901234567891`, `1.5x`, `+1`, `0x10`, `1 2`, `NaN`, `Infinity`,
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `True`, `[1]`, `{"a":1}`,
	`[]`, `{}`, ` [ ] `, `{ }`, `[1,2.50,"x",true,false,null,{},[]]`, `{"a":{"b":[1,{"c":"d"}]},"e":-1e-3}`,
	`{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{a:1}`, `{"a":1}}`, `[[[`, `]`, `{"a\n":1}`,
	`{"é":"ü"}`, "{\"a\":\"\xff\"}", `[truex]`, `[nul]`, `[01]`, `[1-2]`, `{"a":1e}`, `[-]`,
	`{"order":{"id":7,"warehouse":7,"status":"ok","eta":"2026-12-08"},"x":"alpha-0007 ready"}`,
	strings.Repeat("[", 200) + strings.Repeat("]", 200), strings.Repeat(`{"a":`, 130) + "1" + strings.Repeat("}", 130),
}

// TestDecodeFastPathsMatchDecoder checks the fast paths return what
// the Decoder returns (same value and Go type, or an error where the
// Decoder errs).
func TestDecodeFastPathsMatchDecoder(t *testing.T) {
	for _, in := range scalarCorpus {
		checkSameAsDecoder(t, []byte(in))
	}
}

// FuzzDecodeFastPaths extends TestDecodeFastPathsMatchDecoder to any input.
func FuzzDecodeFastPaths(f *testing.F) {
	for _, in := range scalarCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkSameAsDecoder(t, in) })
}

func checkSameAsDecoder(t *testing.T, in []byte) {
	t.Helper()
	got, gerr := Decode(in)
	want, werr := decodeSlow(in)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("Decode(%q): error %v, Decoder error %v", in, gerr, werr)
	}
	if gerr == nil && (fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) || !reflect.DeepEqual(got, want)) {
		t.Fatalf("Decode(%q) = %#v, Decoder gives %#v", in, got, want)
	}
}
