package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// rubricKeys are the keys of a structured rubric.
var rubricKeys = newObjectSpec("a rubric",
	key("ref"),
	key("preset"),
	key("threshold"),
	key("strict"),
	key("criteria"),
	key("tree"),
	key("require_evidence"),
	key("aggregation"),
	key("scale"),
)

// criterionKeys are the keys of one rubric criterion.
var criterionKeys = newObjectSpec("a criterion",
	requiredKey("name"),
	requiredKey("description"),
	key("weight"),
	key("required"),
	key("guard"),
	key("examples"),
	key("when"),
	key("threshold"),
)

// exampleKeys are the keys of a calibration anchor.
var exampleKeys = newObjectSpec("an example", requiredKey("response"), requiredKey("score"))

// whenKeys are the predicates of a criterion's when.
var whenKeys = newObjectSpec("a when predicate", key("contains"), key("regex"))

// treeKeys are the keys of a decision-tree node.
var treeKeys = newObjectSpec("a tree node", key("ask"), key("yes"), key("no"), key("score"), key("reason"))

// scaleKeys are the keys of an object scale.
var scaleKeys = newObjectSpec("a scale", requiredKey("likert"))

// likertKeys are the bounds of a likert scale.
var likertKeys = newObjectSpec("a likert scale", requiredKey("min"), requiredKey("max"))

// RubricPresets are the built-in rubrics { preset: NAME } refers to.
var RubricPresets = []string{"helpfulness", "groundedness", "safety", "format-adherence", "conciseness"}

// RubricAggregations are the ways criterion scores combine.
var RubricAggregations = []string{"mean", "min", "max", "median"}

// rubrics reads the top-level rubrics block into s.
func (l *loader) rubrics(s *Suite, n *yaml.Node, ptr string) {
	es, ok := l.mapping(n, ptr, "the rubrics block (an object of named rubrics)")
	if !ok {
		return
	}
	for _, e := range es {
		rp := child(ptr, e.key)
		if deref(e.value).Kind != yaml.MappingNode {
			l.c.add(e.value, rp, "expected a rubric (an object with criteria or tree), found "+describe(e.value), "")
			continue
		}
		if r := l.rubricObject(e.value, rp, false); r != nil {
			r.Pos = l.pos(e.keyNode, rp)
			s.Rubrics[e.key] = r
			s.RubricOrder = append(s.RubricOrder, e.key)
		}
	}
}

// rubric reads a rubric: free-form text, or an object (structured, a
// reference or a preset).
func (l *loader) rubric(n *yaml.Node, ptr string, refs bool) *Rubric {
	if deref(n).Kind != yaml.MappingNode {
		text, ok := l.nonEmptyStr(n, ptr, "a rubric (text, or an object with criteria or tree)")
		if !ok {
			return nil
		}
		return &Rubric{Text: text, Pos: l.pos(n, ptr)}
	}
	return l.rubricObject(n, ptr, refs)
}

// rubricObject reads a rubric object; refs says whether { ref: NAME } is
// allowed (not inside the rubrics block, so references cannot loop).
func (l *loader) rubricObject(n *yaml.Node, ptr string, refs bool) *Rubric {
	f, ok := l.object(n, ptr, rubricKeys)
	if !ok {
		return nil
	}
	r := &Rubric{Pos: l.pos(n, ptr)}
	switch {
	case f.has("ref"):
		if !refs {
			l.c.add(f.keyNode("ref"), child(ptr, "ref"), "a named rubric cannot refer to another", "copy its criteria, or use a preset")
		}
		for _, e := range f.entries {
			if e.key != "ref" && e.key != "threshold" && e.key != "strict" {
				l.c.add(e.keyNode, child(ptr, e.key), fmt.Sprintf("%q does not go beside ref", e.key),
					"a reference may only override threshold and strict")
			}
		}
	case f.has("preset"):
		if f.has("tree") {
			l.c.add(f.keyNode("tree"), child(ptr, "tree"), `a preset rubric cannot take a tree`, "presets are criteria; append criteria instead")
		}
	default:
		if f.has("criteria") && f.has("tree") {
			l.c.add(f.keyNode("tree"), child(ptr, "tree"), "a rubric takes criteria or tree, not both", "")
		} else if !f.has("criteria") && !f.has("tree") {
			l.c.add(n, ptr, "a rubric needs criteria or tree", "or refer to a named rubric with ref:, or use preset:")
		}
	}
	if f.has("tree") {
		for _, k := range []string{"aggregation", "require_evidence"} {
			if f.has(k) {
				l.c.add(f.keyNode(k), child(ptr, k), fmt.Sprintf("a tree rubric takes no %s", k), "a tree always walks its questions")
			}
		}
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "ref":
			r.Ref = l.ref(e.value, ep, "a rubric name", rubricRef, l.refs.rubrics)
		case "preset":
			r.Preset, _ = l.enum(e.value, ep, "rubric preset", RubricPresets...)
		case "threshold":
			if v, ok := l.fraction(e.value, ep, "threshold"); ok {
				r.Threshold = &v
			}
		case "strict":
			if v, ok := l.boolean(e.value, ep, "strict"); ok {
				r.Strict = &v
			}
		case "require_evidence":
			r.RequireEvidence, _ = l.boolean(e.value, ep, "require_evidence")
		case "aggregation":
			r.Aggregation, _ = l.enum(e.value, ep, "aggregation", RubricAggregations...)
		case "scale":
			r.Scale = l.scale(e.value, ep)
		case "criteria":
			r.Criteria = l.criteria(e.value, ep)
		case "tree":
			r.Tree = l.treeNode(e.value, ep)
		}
	}
	return r
}

// scale reads a rubric scale: unit, percent, or {likert: {min, max}}.
func (l *loader) scale(n *yaml.Node, ptr string) *Scale {
	if deref(n).Kind != yaml.MappingNode {
		kind, ok := l.enum(n, ptr, "scale", "unit", "percent")
		if !ok {
			return nil
		}
		return &Scale{Kind: kind}
	}
	f, ok := l.object(n, ptr, scaleKeys)
	if !ok {
		return nil
	}
	ln, lp := f.get("likert")
	if ln == nil {
		return nil
	}
	lf, ok := l.object(ln, lp, likertKeys)
	if !ok {
		return nil
	}
	s := &Scale{Kind: "likert"}
	good := true
	for _, e := range lf.entries {
		v, ok := l.intRange(e.value, child(lp, e.key), e.key, 0, 1000)
		good = good && ok
		if e.key == "min" {
			s.Min = v
		} else {
			s.Max = v
		}
	}
	if good && lf.has("min") && lf.has("max") && s.Max <= s.Min {
		l.c.add(ln, lp, fmt.Sprintf("a likert scale needs max > min, found min %d and max %d", s.Min, s.Max), "")
		return nil
	}
	return s
}

// criteria reads a rubric's criteria.
func (l *loader) criteria(n *yaml.Node, ptr string) []*Criterion {
	items, ok := l.nonEmptySeq(n, ptr, "criteria")
	if !ok {
		return nil
	}
	var out []*Criterion
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, criterionKeys)
		if !ok {
			continue
		}
		c := &Criterion{Weight: 1, Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				c.Name, _ = l.nonEmptyStr(e.value, ep, "the criterion name")
			case "description":
				c.Description, _ = l.nonEmptyStr(e.value, ep, "the criterion description")
			case "weight":
				c.Weight, _ = l.positiveNumber(e.value, ep, "weight")
			case "required":
				c.Required, _ = l.boolean(e.value, ep, "required")
			case "guard":
				c.Guard, _ = l.boolean(e.value, ep, "guard")
			case "examples":
				c.Examples = l.examples(e.value, ep)
			case "when":
				c.When = l.when(e.value, ep)
			case "threshold":
				if v, ok := l.fraction(e.value, ep, "threshold"); ok {
					c.Threshold = &v
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// examples reads a criterion's calibration anchors.
func (l *loader) examples(n *yaml.Node, ptr string) []*Example {
	items, ok := l.nonEmptySeq(n, ptr, "examples")
	if !ok {
		return nil
	}
	var out []*Example
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, exampleKeys)
		if !ok {
			continue
		}
		ex := &Example{}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			if e.key == "response" {
				ex.Response, _ = l.str(e.value, ep, "the example response")
			} else {
				ex.Score, _ = l.fraction(e.value, ep, "score")
			}
		}
		out = append(out, ex)
	}
	return out
}

// when reads a criterion's predicate: contains or regex.
func (l *loader) when(n *yaml.Node, ptr string) *When {
	f, ok := l.object(n, ptr, whenKeys)
	if !ok {
		return nil
	}
	w := &When{}
	switch l.exclusive(f, whenKeys, true, "contains", "regex") {
	case "contains":
		cn, cp := f.get("contains")
		w.Contains, _ = l.nonEmptyStr(cn, cp, "contains")
	case "regex":
		rn, rp := f.get("regex")
		w.Regex, _ = l.regex(rn, rp)
	default:
		return nil
	}
	return w
}

// treeNode reads a decision-tree node: a question with yes and no, or a
// leaf with a score.
func (l *loader) treeNode(n *yaml.Node, ptr string) *TreeNode {
	if !l.enter(n, ptr) {
		return nil
	}
	defer l.leave(n)
	f, ok := l.object(n, ptr, treeKeys)
	if !ok {
		return nil
	}
	t := &TreeNode{Pos: l.pos(n, ptr)}
	switch {
	case f.has("ask") && f.has("score"):
		l.c.add(f.keyNode("score"), child(ptr, "score"), "a tree node is a question (ask) or a leaf (score), not both", "")
		return nil
	case f.has("ask"):
		for _, k := range []string{"yes", "no"} {
			if !f.has(k) {
				l.c.add(n, ptr, fmt.Sprintf("a question node needs %q", k), "each answer leads to a question or a score")
			}
		}
		if f.has("reason") {
			l.c.add(f.keyNode("reason"), child(ptr, "reason"), "reason goes on a leaf (score), not on a question", "")
		}
	case f.has("score"):
		for _, k := range []string{"yes", "no"} {
			if f.has(k) {
				l.c.add(f.keyNode(k), child(ptr, k), fmt.Sprintf("a leaf (score) takes no %q", k), "")
			}
		}
	default:
		l.c.add(n, ptr, `a tree node needs "ask" (a question) or "score" (a leaf)`, "")
		return nil
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "ask":
			t.Ask, _ = l.nonEmptyStr(e.value, ep, "the question")
		case "yes":
			t.Yes = l.treeNode(e.value, ep)
		case "no":
			t.No = l.treeNode(e.value, ep)
		case "score":
			if v, ok := l.fraction(e.value, ep, "score"); ok {
				t.Score = &v
			}
		case "reason":
			t.Reason, _ = l.str(e.value, ep, "the reason")
		}
	}
	return t
}
