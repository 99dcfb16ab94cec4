package failtext

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestFields(t *testing.T) {
	got := Fields(json.RawMessage(`{"zeta":1,"note":"n\u001b[2J","expected":"<a>","diff":"-a\n+b","actual":{"k":[1,2]},"alpha":null}`))
	want := []Field{
		{"expected", `"<a>"`}, {"actual", `{"k":[1,2]}`}, {"diff", "-a\n+b"}, {"note", "n"},
		{"alpha", "null"}, {"zeta", "1"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := Fields(json.RawMessage(`[1, 2]`)); len(got) != 1 || got[0] != (Field{"failure", "[1,2]"}) {
		t.Errorf("non-object failure = %v", got)
	}
	if got := Fields(nil); got != nil {
		t.Errorf("empty failure = %v", got)
	}
	if got := Fields(json.RawMessage(" null ")); got != nil {
		t.Errorf("null failure = %v", got)
	}
}

func TestRenderValue(t *testing.T) {
	long := RenderValue(json.RawMessage(`"` + strings.Repeat("x", 2*MaxValueRunes) + `"`))
	if !strings.HasSuffix(long, "… (+1002 chars)") {
		t.Errorf("long value not cut: %q", long[len(long)-20:])
	}
	if got := RenderValue(json.RawMessage(`{"n":12345678901234567891}`)); got != `{"n":12345678901234567891}` {
		t.Errorf("big number = %q", got)
	}
	if got := RenderValue(json.RawMessage(" not\n\tjson\x1b[2J ")); got != "not  json" {
		t.Errorf("invalid JSON = %q", got)
	}
	if got := RenderValue(json.RawMessage(`"` + strings.Repeat("y", MaxDecodeBytes) + `"`)); !strings.HasSuffix(got, "… (+3000 chars)… (+1044578 bytes)") {
		t.Errorf("huge value = …%q", got[len(got)-40:])
	}
}

func TestCompactJSON(t *testing.T) {
	if got, ok := CompactJSON(json.RawMessage(`{ "a" : "<&>", "n": 1.50 }`)); !ok || got != `{"a":"<&>","n":1.50}` {
		t.Errorf("CompactJSON = %q, %v", got, ok)
	}
	if _, ok := CompactJSON(json.RawMessage(`{`)); ok {
		t.Error("CompactJSON accepted invalid JSON")
	}
}

func TestAssertionLabelAndHelpers(t *testing.T) {
	a := report.Assertion{Target: "result\n", Matcher: "exact", Message: "says \x1b[2Jhi"}
	if got := AssertionLabel(&a); got != "result exact: says hi" {
		t.Errorf("AssertionLabel = %q", got)
	}
	if got := JoinWords(" a ", "", "\x1b[2J", "b\nc"); got != "a b c" {
		t.Errorf("JoinWords = %q", got)
	}
	if got := FormatNumber(math.Inf(1)) + " " + FormatNumber(0.75) + " " + FormatNumber(1e21); got != "0 0.75 1000000000000000000000" {
		t.Errorf("FormatNumber = %q", got)
	}
}
