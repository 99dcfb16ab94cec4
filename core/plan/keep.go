package plan

import "github.com/mcptest/mcptest/core/plugin"

// Keep narrows the plan to the tests keep accepts (--last-failed), plus
// the tests they wait for: a kept test that consumes a capture needs its
// producer to run first, or it could only error. It returns how many tests
// keep accepted itself. Matchers shrinks to the plugins still used, so a
// narrowed run starts no plugin it does not need.
func (p *Plan) Keep(keep func(*Test) bool) int {
	want := map[*Test]bool{}
	var mark func(t *Test)
	mark = func(t *Test) {
		if want[t] {
			return
		}
		want[t] = true
		for _, d := range t.After {
			mark(d)
		}
	}
	n := 0
	for _, t := range p.Tests {
		if keep(t) {
			n++
			mark(t)
		}
	}
	kept := p.Tests[:0:0]
	for _, t := range p.Tests {
		if want[t] {
			kept = append(kept, t)
		}
	}
	p.Tests = kept
	p.pruneMatchers()
	return n
}

// pruneMatchers drops the matcher plugins no planned assertion uses.
func (p *Plan) pruneMatchers() {
	used := map[*plugin.Found]bool{}
	for _, t := range p.Tests {
		for _, a := range t.Assertions {
			a.Leaves(func(l Leaf) { used[l.Plugin] = true })
		}
	}
	matchers := p.Matchers[:0:0]
	for _, f := range p.Matchers {
		if used[f] {
			matchers = append(matchers, f)
		}
	}
	p.Matchers = matchers
}
