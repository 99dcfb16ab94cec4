package drift

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/catalog"
)

// TestMaskVolatile masks _meta, timestamps, UUIDs and ignored pointers,
// so two answers that differ only there compare equal, and keeps every
// other difference.
func TestMaskVolatile(t *testing.T) {
	a := `{"_meta":{"took":3},"content":[{"type":"text","text":"at 2026-01-02T03:04:05Z id 123e4567-e89b-12d3-a456-426614174000"}],"n":1,"seq":7}`
	b := `{"_meta":{"took":9},"content":[{"type":"text","text":"at 2027-11-12T13:14:15.123+02:00 id 00000000-0000-4000-8000-000000000000"}],"n":1,"seq":8}`
	ma, err := Mask(json.RawMessage(a), []string{"/seq"})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := Mask(json.RawMessage(b), []string{"/seq"})
	if err != nil {
		t.Fatal(err)
	}
	if string(ma) != string(mb) {
		t.Errorf("masked answers differ:\n%s\n%s", ma, mb)
	}
	if !strings.Contains(string(ma), "<timestamp>") || !strings.Contains(string(ma), "<uuid>") || strings.Contains(string(ma), "_meta") {
		t.Errorf("masked: %s", ma)
	}
	mc, _ := Mask(json.RawMessage(strings.Replace(a, `"n":1`, `"n":2`, 1)), []string{"/seq"})
	if string(mc) == string(ma) {
		t.Error("a real difference was masked")
	}
	if Shape(ma) != Shape(mc) {
		t.Error("same shape reported as different")
	}
	if Shape(ma) == Shape(json.RawMessage(`{"content":"x"}`)) {
		t.Error("different shapes reported as equal")
	}
}

// TestLoadSpecErrors names the file, line and field of a bad spec.
func TestLoadSpecErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ text, want string }{
		{"server: x\ncanaries:\n  - name: a\n    tol: echo\n", "field tol not found"},
		{"canaries: []\n", "server:"},
		{"server: x\ncanaries:\n  - name: a\n    tool: t\n  - name: a\n    tool: t\n", ":5: canaries[1]: name \"a\" is used twice"},
		{"server: x\ncanaries:\n  - name: a\n", "tool is required"},
		{"server: x\ncanaries:\n  - name: a\n    tool: t\n    ignore: [seq]\n", "not a JSON pointer"},
	}
	for i, tc := range cases {
		path := filepath.Join(dir, "spec.yml")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSpec(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "spec.yml") {
			t.Errorf("case %d: err = %v; want %q", i, err, tc.want)
		}
	}
}

// TestCheckAfterSave compares a saved (HTML-escaped by encoding/json)
// answer with a fresh one by value: the masks hold < and >.
func TestCheckAfterSave(t *testing.T) {
	fresh, err := Mask(json.RawMessage(`{"content":[{"type":"text","text":"x"}]}`), []string{"/content/0/text"})
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := json.Marshal(fresh) // escapes < and > as \u003c, \u003e
	if !strings.Contains(string(saved), `\u003c`) {
		t.Fatalf("the premise changed: %s", saved)
	}
	base := &State{Catalog: &catalog.Catalog{}, Canaries: []CanaryResult{{Canary: Canary{Name: "c", Tool: "t"}, Outcome: OutcomeResult, Answer: saved}}}
	cur := &State{Catalog: &catalog.Catalog{}, Canaries: []CanaryResult{{Canary: Canary{Name: "c", Tool: "t"}, Outcome: OutcomeResult, Answer: fresh}}}
	tests := Check(base, cur, Options{})
	if len(tests) != 1 || tests[0].Status != "passed" {
		t.Errorf("tests = %+v", tests)
	}
}
