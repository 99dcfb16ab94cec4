package catalog

import (
	"strings"
	"testing"
)

// TestDiffCraftedPair compares the crafted pair in testdata, which
// exercises every rule, with the exact list of changes expected: a rule
// that stops firing, fires twice or changes severity fails here.
func TestDiffCraftedPair(t *testing.T) {
	old, err := Load("testdata/old.json")
	if err != nil {
		t.Fatal(err)
	}
	new, err := Load("testdata/new.json")
	if err != nil {
		t.Fatal(err)
	}
	res := Diff(old, new)
	var got []string
	for _, c := range res.Changes {
		got = append(got, string(c.Severity)+" "+c.ID())
	}
	want := []string{
		"breaking diff/tool-removed/tool/legacy",
		"breaking diff/output-schema-narrowed/tool/report/outputSchema",
		"breaking diff/property-removed/tool/search/inputSchema/properties/filter/properties/tag",
		"breaking diff/required-argument-added/tool/search/inputSchema/properties/index",
		"breaking diff/type-changed/tool/search/inputSchema/properties/limit/type",
		"breaking diff/enum-value-removed/tool/search/inputSchema/properties/mode/enum/deep",
		"breaking diff/argument-made-required/tool/search/inputSchema/properties/strict",
		"breaking diff/output-schema-narrowed/tool/search/outputSchema/properties/state/enum/stale",
		"breaking diff/output-schema-narrowed/tool/search/outputSchema/properties/total",
		"breaking diff/prompt-removed/prompt/old-prompt",
		"breaking diff/required-argument-added/prompt/review/arguments/lang",
		"breaking diff/argument-made-required/prompt/review/arguments/style",
		"breaking diff/property-removed/prompt/review/arguments/tone",
		"breaking diff/resource-removed/resource/docs://old",
		"breaking diff/template-removed/template/files://{path}",
		"non-breaking diff/description-changed/tool/report/description",
		"non-breaking diff/metadata-changed/tool/report/title",
		"non-breaking diff/metadata-changed/tool/search/annotations",
		"non-breaking diff/optional-argument-added/tool/search/inputSchema/properties/cursor",
		"non-breaking diff/requirement-relaxed/tool/search/inputSchema/properties/lang",
		"non-breaking diff/enum-value-added/tool/search/inputSchema/properties/mode/enum/exhaustive",
		"non-breaking diff/type-widened/tool/search/inputSchema/properties/page/type",
		"non-breaking diff/description-changed/tool/search/inputSchema/properties/query/description",
		"non-breaking diff/output-schema-widened/tool/search/outputSchema/properties/took",
		"non-breaking diff/tool-added/tool/summarize",
		"non-breaking diff/prompt-added/prompt/new-prompt",
		"non-breaking diff/requirement-relaxed/prompt/review/arguments/code",
		"non-breaking diff/optional-argument-added/prompt/review/arguments/depth",
		"non-breaking diff/resource-added/resource/docs://new",
		"non-breaking diff/metadata-changed/resource/docs://readme/mimeType",
		"non-breaking diff/template-added/template/files/v2://{path}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	fired := map[string]bool{}
	for _, c := range res.Changes {
		fired[c.Rule] = true
	}
	for _, r := range Rules {
		if !fired[r.Name] {
			t.Errorf("rule %s is not covered by the crafted pair", r.Name)
		}
	}
	if res.Breaking() != 15 {
		t.Errorf("breaking = %d, want 15", res.Breaking())
	}
}

// TestDiffIdentical finds no change between a catalog and itself.
func TestDiffIdentical(t *testing.T) {
	c, err := Load("testdata/new.json")
	if err != nil {
		t.Fatal(err)
	}
	if res := Diff(c, c); len(res.Changes) != 0 {
		t.Errorf("changes: %+v", res.Changes)
	}
}
