package plan

import (
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
)

// Matcher is one node of a planned composition: a leaf that a plugin
// judges, or a structural node (not, anyOf, allOf, oneOf) whose verdict the
// core combines from its children's.
type Matcher struct {
	// Spec is the matcher as loaded.
	Spec *config.Matcher
	// Plugin serves a leaf; nil for a structural node.
	Plugin *plugin.Found
	// Children are a structural node's inner matchers, in order.
	Children []*Matcher
}

// Leaf is one matcher a plugin judges.
type Leaf struct {
	// Assertion is the entry the leaf belongs to (for an assert-set, the
	// member).
	Assertion *Assertion
	// Matcher is the leaf's matcher as loaded.
	Matcher *config.Matcher
	// Plugin serves the leaf.
	Plugin *plugin.Found
}

// Leaves calls fn for every matcher of the entry a plugin judges, depth
// first in declaration order: the order in which the runner sends them and
// reads their verdicts back.
func (a *Assertion) Leaves(fn func(Leaf)) {
	switch {
	case a.Members != nil:
		for _, m := range a.Members {
			m.Leaves(fn)
		}
	case a.Matcher != nil:
		a.Matcher.leaves(a, fn)
	case a.Plugin != nil:
		fn(Leaf{Assertion: a, Matcher: &a.Spec.Matcher, Plugin: a.Plugin})
	}
}

func (m *Matcher) leaves(a *Assertion, fn func(Leaf)) {
	if m.Plugin != nil {
		fn(Leaf{Assertion: a, Matcher: m.Spec, Plugin: m.Plugin})
		return
	}
	for _, c := range m.Children {
		c.leaves(a, fn)
	}
}

// entry plans one expect entry; nil when it has errors (recorded).
func (b *builder) entry(a *config.Assertion) *Assertion {
	if a.Set != nil {
		pa := &Assertion{Spec: a, Members: make([]*Assertion, 0, len(a.Set.Assertions))}
		ok := true
		for _, m := range a.Set.Assertions {
			pm := b.entry(m)
			if pm == nil {
				ok = false
				continue
			}
			pa.Members = append(pa.Members, pm)
		}
		if !ok {
			return nil
		}
		return pa
	}
	if !a.Matcher.IsComposition() {
		pa := b.assertion(a)
		if pa != nil {
			b.use(pa.Plugin)
		}
		return pa
	}
	pt, ok := b.checkTarget(a)
	tree := b.matcherTree(&a.Matcher)
	if !ok || tree == nil {
		return nil
	}
	return &Assertion{Spec: a, Target: pt.path, Matcher: tree}
}

// matcherTree resolves every leaf of a composition to its plugin; nil when
// one cannot be resolved (the error is recorded).
func (b *builder) matcherTree(m *config.Matcher) *Matcher {
	if !m.IsComposition() {
		f := b.resolveMatcher(m)
		if f == nil {
			return nil
		}
		b.use(f)
		return &Matcher{Spec: m, Plugin: f}
	}
	node := &Matcher{Spec: m, Children: make([]*Matcher, 0, len(m.Children))}
	ok := true
	for _, c := range m.Children {
		pc := b.matcherTree(c)
		if pc == nil {
			ok = false
			continue
		}
		node.Children = append(node.Children, pc)
	}
	if !ok {
		return nil
	}
	return node
}

// use records that the plan needs a plugin, so that it is started.
func (b *builder) use(f *plugin.Found) {
	if !b.used[f] {
		b.used[f] = true
		b.plan.Matchers = append(b.plan.Matchers, f)
	}
}
