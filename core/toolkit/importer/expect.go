package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// expectBlock is mcp-assert's expect map; the fields converted.
type expectBlock struct {
	NotError    *bool          `yaml:"not_error"`
	IsError     *bool          `yaml:"is_error"`
	NotEmpty    *bool          `yaml:"not_empty"`
	Contains    []string       `yaml:"contains"`
	NotContains []string       `yaml:"not_contains"`
	ContainsAny []string       `yaml:"contains_any"`
	Equals      *string        `yaml:"equals"`
	JSONPath    map[string]any `yaml:"json_path"`
	MinResults  *int           `yaml:"min_results"`
	MaxResults  *int           `yaml:"max_results"`
}

// joined is CEL for the text of every text item, concatenated: what
// mcp-assert's contains and equals look at.
const joined = "value.filter(c, has(c.text)).map(c, c.text).join('')"

// lit is a CEL string literal (JSON escapes are valid CEL escapes).
func lit(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// expect converts an expect block judged on content (a list of content
// items at contentTarget) and an isError flag at errTarget (empty when
// the response has none).
func (c *converter) expect(path string, doc *yaml.Node, block string, n *yaml.Node, contentTarget, errTarget string) ([]Assertion, bool) {
	var e expectBlock
	if n.Kind != 0 {
		if err := decodeKnown(n, &e); err != nil {
			c.issue(path, n.Line, false, "%s.expect: %v", block, err)
			return nil, false
		}
	}
	var out []Assertion
	if e.NotError != nil && *e.NotError && errTarget != "" {
		out = append(out, Assertion{Target: errTarget, Matcher: map[string]any{"exact": false}})
	}
	if e.IsError != nil && errTarget != "" {
		out = append(out, Assertion{Target: errTarget, Matcher: map[string]any{"exact": *e.IsError}})
	}
	if e.NotEmpty != nil && *e.NotEmpty {
		out = append(out, Assertion{Target: contentTarget, Matcher: map[string]any{"cel": "value.size() > 0"}})
	}
	for _, s := range e.Contains {
		out = append(out, Assertion{Target: contentTarget, Matcher: map[string]any{"cel": joined + ".contains(" + lit(s) + ")"}})
	}
	for _, s := range e.NotContains {
		out = append(out, Assertion{Target: contentTarget, Matcher: map[string]any{"cel": "!" + joined + ".contains(" + lit(s) + ")"}})
	}
	if len(e.ContainsAny) > 0 {
		var parts []string
		for _, s := range e.ContainsAny {
			parts = append(parts, joined+".contains("+lit(s)+")")
		}
		out = append(out, Assertion{Target: contentTarget, Matcher: map[string]any{"cel": strings.Join(parts, " || ")}})
	}
	if e.Equals != nil {
		out = append(out, Assertion{Target: contentTarget, Matcher: map[string]any{"cel": joined + ".trim() == " + lit(strings.TrimSpace(*e.Equals))}})
	}
	if len(e.JSONPath) > 0 {
		c.issue(path, n.Line, false, "%s.expect.json_path: paths into text parsed as JSON have no target yet", block)
		return nil, false
	}
	if e.MinResults != nil || e.MaxResults != nil {
		c.issue(path, n.Line, false, "%s.expect.min_results/max_results: counting results in text has no target yet", block)
		return nil, false
	}
	return out, true
}

// decodeKnown decodes n refusing unknown keys, naming the first.
func decodeKnown(n *yaml.Node, v any) error {
	raw, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("unsupported expectation: %w", err)
	}
	return nil
}
