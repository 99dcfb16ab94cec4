package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// rubricKeys are the keys of a structured rubric.
var rubricKeys = yamlpos.NewObjectSpec("a rubric",
	yamlpos.Key("ref"),
	yamlpos.Key("preset"),
	yamlpos.Key("threshold"),
	yamlpos.Key("strict"),
	yamlpos.Key("criteria"),
	yamlpos.Key("tree"),
	yamlpos.Key("require_evidence"),
	yamlpos.Key("aggregation"),
	yamlpos.Key("scale"),
)

// criterionKeys are the keys of one rubric criterion.
var criterionKeys = yamlpos.NewObjectSpec("a criterion",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("description"),
	yamlpos.Key("weight"),
	yamlpos.Key("required"),
	yamlpos.Key("guard"),
	yamlpos.Key("examples"),
	yamlpos.Key("when"),
	yamlpos.Key("threshold"),
)

// exampleKeys are the keys of a calibration anchor.
var exampleKeys = yamlpos.NewObjectSpec("an example", yamlpos.RequiredKey("response"), yamlpos.RequiredKey("score"))

// whenKeys are the predicates of a criterion's when.
var whenKeys = yamlpos.NewObjectSpec("a when predicate", yamlpos.Key("contains"), yamlpos.Key("regex"))

// treeKeys are the keys of a decision-tree node.
var treeKeys = yamlpos.NewObjectSpec("a tree node", yamlpos.Key("ask"), yamlpos.Key("yes"), yamlpos.Key("no"), yamlpos.Key("score"), yamlpos.Key("reason"))

// scaleKeys are the keys of an object scale.
var scaleKeys = yamlpos.NewObjectSpec("a scale", yamlpos.RequiredKey("likert"))

// likertKeys are the bounds of a likert scale.
var likertKeys = yamlpos.NewObjectSpec("a likert scale", yamlpos.RequiredKey("min"), yamlpos.RequiredKey("max"))

// RubricPresets are the built-in rubrics { preset: NAME } refers to.
var RubricPresets = []string{"helpfulness", "groundedness", "safety", "format-adherence", "conciseness"}

// RubricAggregations are the ways criterion scores combine.
var RubricAggregations = []string{"mean", "min", "max", "median"}

// rubrics reads the top-level rubrics block into s.
func (l *loader) rubrics(s *Suite, n *yaml.Node, ptr string) {
	es, ok := l.Mapping(n, ptr, "the rubrics block (an object of named rubrics)")
	if !ok {
		return
	}
	for _, e := range es {
		rp := yamlpos.Child(ptr, e.Key)
		if yamlpos.Deref(e.Value).Kind != yaml.MappingNode {
			l.C.Add(e.Value, rp, "expected a rubric (an object with criteria or tree), found "+yamlpos.Describe(e.Value), "")
			continue
		}
		if r := l.rubricObject(e.Value, rp, false); r != nil {
			r.Pos = l.pos(e.KeyNode, rp)
			s.Rubrics[e.Key] = r
			s.RubricOrder = append(s.RubricOrder, e.Key)
		}
	}
}

// rubric reads a rubric: free-form text, or an object (structured, a
// reference or a preset).
func (l *loader) rubric(n *yaml.Node, ptr string, refs bool) *Rubric {
	if yamlpos.Deref(n).Kind != yaml.MappingNode {
		text, ok := l.NonEmptyStr(n, ptr, "a rubric (text, or an object with criteria or tree)")
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
	f, ok := l.Object(n, ptr, rubricKeys)
	if !ok {
		return nil
	}
	r := &Rubric{Pos: l.pos(n, ptr)}
	switch {
	case f.Has("ref"):
		if !refs {
			l.C.Add(f.KeyNode("ref"), yamlpos.Child(ptr, "ref"), "a named rubric cannot refer to another", "copy its criteria, or use a preset")
		}
		for _, e := range f.Entries {
			if e.Key != "ref" && e.Key != "threshold" && e.Key != "strict" {
				l.C.Add(e.KeyNode, yamlpos.Child(ptr, e.Key), fmt.Sprintf("%q does not go beside ref", e.Key),
					"a reference may only override threshold and strict")
			}
		}
	case f.Has("preset"):
		if f.Has("tree") {
			l.C.Add(f.KeyNode("tree"), yamlpos.Child(ptr, "tree"), `a preset rubric cannot take a tree`, "presets are criteria; append criteria instead")
		}
	default:
		if f.Has("criteria") && f.Has("tree") {
			l.C.Add(f.KeyNode("tree"), yamlpos.Child(ptr, "tree"), "a rubric takes criteria or tree, not both", "")
		} else if !f.Has("criteria") && !f.Has("tree") {
			l.C.Add(n, ptr, "a rubric needs criteria or tree", "or refer to a named rubric with ref:, or use preset:")
		}
	}
	if f.Has("tree") {
		for _, k := range []string{"aggregation", "require_evidence"} {
			if f.Has(k) {
				l.C.Add(f.KeyNode(k), yamlpos.Child(ptr, k), fmt.Sprintf("a tree rubric takes no %s", k), "a tree always walks its questions")
			}
		}
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "ref":
			r.Ref = l.ref(e.Value, ep, "a rubric name", rubricRef, l.refs.rubrics)
		case "preset":
			r.Preset, _ = l.Enum(e.Value, ep, "rubric preset", RubricPresets...)
		case "threshold":
			if v, ok := l.Fraction(e.Value, ep, "threshold"); ok {
				r.Threshold = &v
			}
		case "strict":
			if v, ok := l.Boolean(e.Value, ep, "strict"); ok {
				r.Strict = &v
			}
		case "require_evidence":
			r.RequireEvidence, _ = l.Boolean(e.Value, ep, "require_evidence")
		case "aggregation":
			r.Aggregation, _ = l.Enum(e.Value, ep, "aggregation", RubricAggregations...)
		case "scale":
			r.Scale = l.scale(e.Value, ep)
		case "criteria":
			r.Criteria = l.criteria(e.Value, ep)
		case "tree":
			r.Tree = l.treeNode(e.Value, ep)
		}
	}
	return r
}

// scale reads a rubric scale: unit, percent, or {likert: {min, max}}.
func (l *loader) scale(n *yaml.Node, ptr string) *Scale {
	if yamlpos.Deref(n).Kind != yaml.MappingNode {
		kind, ok := l.Enum(n, ptr, "scale", "unit", "percent")
		if !ok {
			return nil
		}
		return &Scale{Kind: kind}
	}
	f, ok := l.Object(n, ptr, scaleKeys)
	if !ok {
		return nil
	}
	ln, lp := f.Get("likert")
	if ln == nil {
		return nil
	}
	lf, ok := l.Object(ln, lp, likertKeys)
	if !ok {
		return nil
	}
	s := &Scale{Kind: "likert"}
	good := true
	for _, e := range lf.Entries {
		v, ok := l.IntRange(e.Value, yamlpos.Child(lp, e.Key), e.Key, 0, 1000)
		good = good && ok
		if e.Key == "min" {
			s.Min = v
		} else {
			s.Max = v
		}
	}
	if good && lf.Has("min") && lf.Has("max") && s.Max <= s.Min {
		l.C.Add(ln, lp, fmt.Sprintf("a likert scale needs max > min, found min %d and max %d", s.Min, s.Max), "")
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
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, criterionKeys)
		if !ok {
			continue
		}
		c := &Criterion{Weight: 1, Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				c.Name, _ = l.NonEmptyStr(e.Value, ep, "the criterion name")
			case "description":
				c.Description, _ = l.NonEmptyStr(e.Value, ep, "the criterion description")
			case "weight":
				c.Weight, _ = l.PositiveNumber(e.Value, ep, "weight")
			case "required":
				c.Required, _ = l.Boolean(e.Value, ep, "required")
			case "guard":
				c.Guard, _ = l.Boolean(e.Value, ep, "guard")
			case "examples":
				c.Examples = l.examples(e.Value, ep)
			case "when":
				c.When = l.when(e.Value, ep)
			case "threshold":
				if v, ok := l.Fraction(e.Value, ep, "threshold"); ok {
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
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, exampleKeys)
		if !ok {
			continue
		}
		ex := &Example{}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			if e.Key == "response" {
				ex.Response, _ = l.Str(e.Value, ep, "the example response")
			} else {
				ex.Score, _ = l.Fraction(e.Value, ep, "score")
			}
		}
		out = append(out, ex)
	}
	return out
}

// when reads a criterion's predicate: contains or regex.
func (l *loader) when(n *yaml.Node, ptr string) *When {
	f, ok := l.Object(n, ptr, whenKeys)
	if !ok {
		return nil
	}
	w := &When{}
	switch l.Exclusive(f, whenKeys, true, "contains", "regex") {
	case "contains":
		cn, cp := f.Get("contains")
		w.Contains, _ = l.NonEmptyStr(cn, cp, "contains")
	case "regex":
		rn, rp := f.Get("regex")
		w.Regex, _ = l.regex(rn, rp)
	default:
		return nil
	}
	return w
}

// treeNode reads a decision-tree node: a question with yes and no, or a
// leaf with a score.
func (l *loader) treeNode(n *yaml.Node, ptr string) *TreeNode {
	if !l.Enter(n, ptr) {
		return nil
	}
	defer l.Leave(n)
	f, ok := l.Object(n, ptr, treeKeys)
	if !ok {
		return nil
	}
	t := &TreeNode{Pos: l.pos(n, ptr)}
	switch {
	case f.Has("ask") && f.Has("score"):
		l.C.Add(f.KeyNode("score"), yamlpos.Child(ptr, "score"), "a tree node is a question (ask) or a leaf (score), not both", "")
		return nil
	case f.Has("ask"):
		for _, k := range []string{"yes", "no"} {
			if !f.Has(k) {
				l.C.Add(n, ptr, fmt.Sprintf("a question node needs %q", k), "each answer leads to a question or a score")
			}
		}
		if f.Has("reason") {
			l.C.Add(f.KeyNode("reason"), yamlpos.Child(ptr, "reason"), "reason goes on a leaf (score), not on a question", "")
		}
	case f.Has("score"):
		for _, k := range []string{"yes", "no"} {
			if f.Has(k) {
				l.C.Add(f.KeyNode(k), yamlpos.Child(ptr, k), fmt.Sprintf("a leaf (score) takes no %q", k), "")
			}
		}
	default:
		l.C.Add(n, ptr, `a tree node needs "ask" (a question) or "score" (a leaf)`, "")
		return nil
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "ask":
			t.Ask, _ = l.NonEmptyStr(e.Value, ep, "the question")
		case "yes":
			t.Yes = l.treeNode(e.Value, ep)
		case "no":
			t.No = l.treeNode(e.Value, ep)
		case "score":
			if v, ok := l.Fraction(e.Value, ep, "score"); ok {
				t.Score = &v
			}
		case "reason":
			t.Reason, _ = l.Str(e.Value, ep, "the reason")
		}
	}
	return t
}
