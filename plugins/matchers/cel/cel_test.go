package main

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// envelope is a tool result as a cel assertion with an empty target sees it.
const envelope = `{"content":[{"type":"text","text":"ok: 3 items"}],"isError":false,
	"structuredContent":{"count":3,"ratio":0.75,"tags":["a","b"],"owner":null,
	"id":9223372036854775807,"big":18446744073709551615,"huge":123456789012345678901234567890}}`

func TestCELVerdicts(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct {
		expr, actual string
		pass         bool
	}{
		// the suite reference's example
		{"value.content.size() > 0 && !value.isError", envelope, true},
		{"value.content.size() > 0 && !value.isError", `{"content":[],"isError":false}`, false},
		// numbers: integers are int, so arithmetic with int literals works
		{"value.structuredContent.count == 3", envelope, true},
		{"value.structuredContent.count + 1 == 4", envelope, true},
		{"value.structuredContent.count > 3", envelope, false},
		{"value.structuredContent.ratio >= 0.5 && value.structuredContent.ratio < 1", envelope, true},
		{"value.structuredContent.count == 3.0", envelope, true},
		{"value.structuredContent.id == 9223372036854775807", envelope, true},
		{"value.structuredContent.big == 18446744073709551615u", envelope, true},
		{"value.structuredContent.huge > 1e29", envelope, true},
		{"value == 2.5", `2.5`, true},
		{"value == 1000.0", `1e3`, true},
		// maps and lists
		{"'owner' in value.structuredContent && value.structuredContent.owner == null", envelope, true},
		{"has(value.structuredContent.tags) && !has(value.structuredContent.missing)", envelope, true},
		{"value.structuredContent.tags == ['a', 'b']", envelope, true},
		{"'b' in value.structuredContent.tags", envelope, true},
		{"value.content.exists(c, c.type == 'text')", envelope, true},
		{"value.content.all(c, c.type == 'image')", envelope, false},
		{"value.structuredContent.tags.map(t, t + t) == ['aa', 'bb']", envelope, true},
		{"value.structuredContent.tags.filter(t, t > 'a').size() == 1", envelope, true},
		{"size(value) == 0", `{}`, true},
		{"value == {'a': [1, {'b': true}]}", `{"a":[1,{"b":true}]}`, true},
		// strings and the regex helper
		{"value.content[0].text.startsWith('ok')", envelope, true},
		{`value.content[0].text.matches('^ok: \\d+ items$')`, envelope, true},
		{"value.matches('^ok')", `"okay"`, true},
		{"value.matches('^ok')", `"not ok"`, false},
		{"value.matches('(?i)^OK')", `"ok"`, true},
		{"value.contains('é') && value.size() == 4", `"café"`, true},
		{"value.lowerAscii() == 'hello' && value.split('L').size() == 3", `"HELLO"`, true},
		// scalars and null
		{"value", `true`, true},
		{"value", `false`, false},
		{"value == null", `null`, true},
		{"value == 'x'", `"x"`, true},
		// CEL's logical operators absorb an error when the other side decides
		{"has(value.missing) && value.missing > 1", `{}`, false},
		{"value.missing > 1 || true", `{}`, true},
	} {
		r := h.Match(matcherKey, tc.actual, expr(tc.expr))
		if r.Error != "" || r.Pass != tc.pass {
			t.Errorf("%s: pass = %v (error %q), want %v", tc.expr, r.Pass, r.Error, tc.pass)
		}
	}
}

func TestCELFailureShape(t *testing.T) {
	h := serve(t)
	r := h.Match(matcherKey, `{"count":2}`, expr("value.count == 3"))
	want := `{"expected":"value.count == 3","actual":{"count":2},"note":"the expression evaluated to false"}`
	if string(r.Failure) != want {
		t.Errorf("failure =\n%s\nwant\n%s", r.Failure, want)
	}
	// big integers travel untouched in the failure
	var f failure
	h.DecodeFailure(h.Match(matcherKey, `12345678901234567891`, expr("value == 0")), &f)
	if string(f.Actual) != `12345678901234567891` {
		t.Errorf("actual = %s", f.Actual)
	}
}

func TestCELHugeActualIsTruncated(t *testing.T) {
	h := serve(t)
	actual := `{"items":` + numbers(100000) + `}`
	var f failure
	h.DecodeFailure(h.Match(matcherKey, actual, expr("value.items.size() == 0")), &f)
	var s string
	if err := json.Unmarshal(f.Actual, &s); err != nil {
		t.Fatalf("truncated actual is not a JSON string: %s", f.Actual)
	}
	if len(s) > maxActualBytes+len("…") || !strings.HasPrefix(s, `{"items":[0,1,1`) || !strings.HasSuffix(s, "…") {
		t.Errorf("truncated actual = %.80q… (%d bytes)", s, len(s))
	}
	if want := "the value is 200011 bytes of JSON, and only its first 4096 are shown"; !strings.Contains(f.Note, want) {
		t.Errorf("note %q, want it to contain %q", f.Note, want)
	}
}

func TestTruncateKeepsCharacters(t *testing.T) {
	s := strings.Repeat("é", 10) // 2 bytes each
	if got := truncateUTF8(s, 5); got != "éé" {
		t.Errorf("truncateUTF8 = %q", got)
	}
}

func TestCELNonBool(t *testing.T) {
	h := serve(t)
	// known at compile time: refused before the run
	for _, e := range []string{"value.size()", "'text'", "[true]", "value.count + 1"} {
		h.MustRefuse(matcherKey, expr(e), "the CEL expression must return a bool: "+strconv.Quote(e)+" returns")
	}
	// known only once evaluated
	for _, tc := range []struct{ expr, actual, want string }{
		{"value.count", `{"count":3}`, `"value.count" returned int (3), not a bool`},
		{"value", `"yes"`, `"value" returned string ("yes"), not a bool`},
		{"value.owner", `{"owner":null}`, `"value.owner" returned null, not a bool`},
		{"value", `[true]`, `"value" returned list`},
	} {
		if err := h.Check(matcherKey, expr(tc.expr)); err != nil {
			t.Errorf("%s: rejected before the run: %s", tc.expr, err)
		}
		mustInvalid(t, h, h.Match(matcherKey, tc.actual, expr(tc.expr)), "the CEL expression must return a bool: "+tc.want)
	}
}

func TestCELCompileErrors(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ arg, want string }{
		{expr("value >"), `the CEL expression does not compile: "value >": 1:8: Syntax error: mismatched input '<EOF>'`},
		{expr("value.count ==\n  = 3"), `"value.count ==\n  = 3": 2:3: Syntax error`},
		{expr("nope == 1"), `1:1: undeclared reference to 'nope'`},
		{expr("value.matches('(')"), `"value.matches('(')": error parsing regexp: missing closing )`},
		{expr("size(1, 2) == 0"), `found no matching overload for 'size'`},
		{expr("  "), "the CEL expression does not compile: the expression is empty"},
		{`3`, "the argument must be a string holding a CEL expression, got a number"},
		{`{"expr":"true"}`, "got an object"},
		{`null`, "got null"},
		{``, "the argument is not valid JSON"},
	} {
		if got := h.MustRefuse(matcherKey, tc.arg, tc.want); !strings.HasPrefix(got, "invalid matcher argument: cel: ") {
			t.Errorf("%s: check error %q lacks the plugin's invalid-argument marker", tc.arg, got)
		}
		mustInvalid(t, h, h.Match(matcherKey, `{}`, tc.arg), tc.want)
	}
}

func TestCELEvaluationErrors(t *testing.T) {
	h := serve(t)
	for _, tc := range []struct{ expr, actual, want string }{
		// A missing key is an error, not false: test for it with has().
		{"value.missing > 1", `{"count":3}`, `the CEL expression failed to evaluate: "value.missing > 1" at 1:6: no such key: missing`},
		{"value.a.b == 1", `{"a":{"c":1}}`, `"value.a.b == 1" at 1:8: no such key: b`},
		{"value[3] == 1", `[1]`, `at 1:6: index out of bounds: 3`},
		{"int(value) == 1", `"x"`, `at 1:4: type conversion error from 'string' to 'int'`},
		{"1 / value == 1", `0`, `division by zero`},
		{"value.matches(value)", `"("`, `at 1:14: error parsing regexp: missing closing )`},
		{"value.count + 1.5 > 0", `{"count":3}`, `no such overload`},
		{"value.startsWith('a')", `5`, `no such overload`},
	} {
		mustInvalid(t, h, h.Match(matcherKey, tc.actual, expr(tc.expr)), tc.want)
	}
}

func TestCELBadActualValue(t *testing.T) {
	h := serve(t)
	for _, actual := range []string{``, `{"a":`, `1 2`} {
		r := h.Match(matcherKey, actual, expr("true"))
		if r.ErrorKind != plugintest.ErrorKindInternal || !strings.Contains(r.Error, "cel: decode actual value") {
			t.Errorf("actual %q: got %s %q, want an internal decode error", actual, r.ErrorKind, r.Error)
		}
	}
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "cel" || d.Version != "0.1.0" {
		t.Errorf("name/version = %s %s", d.Name, d.Version)
	}
	if len(d.Components) != 1 || d.Components[0].Kind != sdk.KindMatcher || !reflect.DeepEqual(d.Components[0].Keys, []string{"cel"}) {
		t.Errorf("components = %+v", d.Components)
	}
}
