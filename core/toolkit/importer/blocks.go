package importer

import (
	"cmp"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// resources converts assert_resources: a read becomes a resource test,
// a list a list test.
func (c *converter) resources(path string, doc *yaml.Node, r *resourceBlock, t Test) bool {
	if r.Subscribe.Kind != 0 || r.Unsubscribe.Kind != 0 {
		c.issue(path, lineOf(doc, "assert_resources", "subscribe"), false, "assert_resources.subscribe needs a trigger; write a resource test with subscribe by hand")
		return false
	}
	switch {
	case r.Read.Kind != 0:
		exp, ok := c.expect(path, doc, "assert_resources", &r.Expect, "result.contents", "")
		if !ok {
			return false
		}
		// read is a URI, or a map with one.
		switch r.Read.Kind {
		case yaml.ScalarNode:
			t.URI = r.Read.Value
		default:
			var m map[string]string
			if err := r.Read.Decode(&m); err != nil || m["uri"] == "" {
				c.issue(path, r.Read.Line, false, "assert_resources.read: want a URI or {uri: URI}")
				return false
			}
			t.URI = m["uri"]
		}
		t.Expect = exp
		t.URI = strings.ReplaceAll(t.URI, "{{fixture}}", "${fixture}")
		c.res.Suite.Resources = append(c.res.Suite.Resources, t)
	case r.List.Kind != 0:
		exp, ok := c.expect(path, doc, "assert_resources", &r.Expect, "result.resources", "")
		if !ok {
			return false
		}
		t.List, t.Expect = "resources", celOnJSON(exp)
		c.res.Suite.Lists = append(c.res.Suite.Lists, t)
	default:
		c.issue(path, lineOf(doc, "assert_resources"), false, "assert_resources has neither read nor list")
		return false
	}
	return true
}

// completion converts assert_completion into a completions test; the
// values are what mcp-assert's text checks search.
func (c *converter) completion(path string, doc *yaml.Node, cb *completionBlock, t Test) bool {
	ref := map[string]string{}
	switch cb.Ref["type"] {
	case "ref/prompt":
		ref["prompt"] = cb.Ref["name"]
	case "ref/resource":
		ref["resource"] = cmp.Or(cb.Ref["uri"], cb.Ref["name"])
	default:
		c.issue(path, lineOf(doc, "assert_completion", "ref"), false, "assert_completion.ref.type %q is neither ref/prompt nor ref/resource", cb.Ref["type"])
		return false
	}
	exp, ok := c.expect(path, doc, "assert_completion", &cb.Expect, "result.completion.values", "")
	if !ok {
		return false
	}
	for i, a := range exp {
		if cel, ok := a.Matcher["cel"].(string); ok {
			exp[i].Matcher = map[string]any{"cel": strings.ReplaceAll(cel, joined, "value.join(' ')")}
		}
	}
	t.Ref, t.Argument, t.Context, t.Expect = ref, cb.Argument, cb.Context, exp
	c.res.Suite.Completions = append(c.res.Suite.Completions, t)
	return true
}

// prompts converts assert_prompts: get becomes a prompt test, list a
// list test.
func (c *converter) prompts(path string, doc *yaml.Node, p *promptBlock, t Test) bool {
	switch {
	case p.Get != nil:
		exp, ok := c.expect(path, doc, "assert_prompts", &p.Expect, "result.messages", "")
		if !ok {
			return false
		}
		t.Prompt, t.Args, t.Expect = p.Get.Name, c.args(p.Get.Arguments), promptText(exp)
		c.res.Suite.Prompts = append(c.res.Suite.Prompts, t)
	case p.List.Kind != 0:
		exp, ok := c.expect(path, doc, "assert_prompts", &p.Expect, "result.prompts", "")
		if !ok {
			return false
		}
		t.List, t.Expect = "prompts", celOnJSON(exp)
		c.res.Suite.Lists = append(c.res.Suite.Lists, t)
	default:
		c.issue(path, lineOf(doc, "assert_prompts"), false, "assert_prompts has neither get nor list")
		return false
	}
	return true
}

// celOnJSON rewrites content-text checks for a list, whose items are
// objects: mcp-assert searches their JSON text, so does this.
func celOnJSON(exp []Assertion) []Assertion {
	for i, a := range exp {
		if cel, ok := a.Matcher["cel"].(string); ok {
			exp[i].Matcher = map[string]any{"cel": strings.ReplaceAll(cel, joined, "value.map(i, string(i.name) + ' ' + (has(i.uri) ? string(i.uri) : '') + ' ' + (has(i.description) ? string(i.description) : '')).join(' ')")}
		}
	}
	return exp
}

// promptText rewrites content-text checks for prompt messages, whose
// text sits one level down.
func promptText(exp []Assertion) []Assertion {
	for i, a := range exp {
		if cel, ok := a.Matcher["cel"].(string); ok {
			exp[i].Matcher = map[string]any{"cel": strings.ReplaceAll(cel, joined, "value.filter(m, has(m.content.text)).map(m, m.content.text).join('')")}
		}
	}
	return exp
}

// composition converts setup steps plus the assertion into a
// composition: each step a node that needs the one before, captures
// read through ${node.path}, the assertion the output node.
func (c *converter) composition(path string, doc *yaml.Node, a *assertFile, t Test) (Composition, bool) {
	comp := Composition{Name: t.Name, Server: t.Server, TimeoutMS: t.TimeoutMS, Tags: t.Tags}
	captured := map[string]string{}
	prev := ""
	for i, s := range a.Setup {
		id := fmt.Sprintf("setup_%d", i+1)
		n := Node{ID: id, Tool: s.Tool, Args: c.nodeArgs(s.Args, captured)}
		if prev != "" {
			n.Needs = []string{prev}
		}
		for name, p := range s.Capture {
			ref, ok := jsonPathRef(p)
			if !ok {
				c.issue(path, lineOf(doc, "setup"), false, "setup[%d].capture.%s: path %q is not a simple $.a.b path", i, name, p)
				return comp, false
			}
			captured[name] = id + "." + ref
		}
		comp.Nodes = append(comp.Nodes, n)
		prev = id
	}
	for _, n := range comp.Nodes {
		if raw, _ := yaml.Marshal(n.Args); strings.Contains(string(raw), "${fixture}") {
			c.issue(path, lineOf(doc, "setup"), false, "setup steps with {{fixture}}: composition nodes do not expand ${fixture}")
			return comp, false
		}
	}
	main := Node{ID: "assert", Tool: a.Assert.Tool, Args: c.nodeArgs(a.Assert.Args, captured), Needs: []string{prev}}
	if raw, _ := yaml.Marshal(main.Args); strings.Contains(string(raw), "${fixture}") {
		c.issue(path, lineOf(doc, "assert"), false, "an assertion after setup with {{fixture}}: composition nodes do not expand ${fixture}")
		return comp, false
	}
	comp.Nodes = append(comp.Nodes, main)
	comp.Output = "assert"
	var e expectBlock
	if a.Assert.Expect.Kind != 0 {
		if err := decodeKnown(&a.Assert.Expect, &e); err != nil {
			c.issue(path, a.Assert.Expect.Line, false, "assert.expect: %v", err)
			return comp, false
		}
	}
	switch {
	case e.IsError != nil && *e.IsError:
		comp.Expect = append(comp.Expect, Assertion{Target: "nodes.assert.status", Matcher: map[string]any{"exact": "error"}})
	default:
		comp.Expect = append(comp.Expect, Assertion{Target: "nodes.assert.status", Matcher: map[string]any{"exact": "ok"}})
	}
	for _, s := range e.Contains {
		comp.Expect = append(comp.Expect, Assertion{Target: "nodes.assert.output", Matcher: map[string]any{"cel": "string(value).contains(" + lit(s) + ")"}})
	}
	if len(e.JSONPath) > 0 || e.MinResults != nil || e.MaxResults != nil || e.Equals != nil || len(e.NotContains) > 0 || len(e.ContainsAny) > 0 {
		c.issue(path, a.Assert.Expect.Line, false, "assert.expect after setup: only not_error, is_error, not_empty and contains convert to a composition")
		return comp, false
	}
	return comp, true
}

// nodeArgs rewrites placeholders for a composition node: captures become
// references to the node that captured them.
func (c *converter) nodeArgs(v map[string]any, captured map[string]string) map[string]any {
	if v == nil {
		return nil
	}
	out, _ := rewrite(v, func(name string) string {
		if name == "fixture" {
			return "${fixture}"
		}
		if ref, ok := captured[name]; ok {
			return "${" + ref + "}"
		}
		return "{{" + name + "}}"
	}).(map[string]any)
	return out
}

// jsonPathRef turns $.a.b into a.b.
func jsonPathRef(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "$.")
	if !ok || rest == "" || strings.ContainsAny(rest, "[]*?@ ") {
		return "", false
	}
	return rest, true
}
