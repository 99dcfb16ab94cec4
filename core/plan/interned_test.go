package plan_test

import (
	"testing"
	"unsafe"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

const repeatedTargets = `servers:
  s: {command: [./s]}
tools:
  - name: one
    server: s
    tool: t
    expect:
      - {target: result.a, matcher: {exact: 1}}
      - {target: result.b, matcher: {allOf: [{exact: 1}, {contains: x}]}}
  - name: two
    server: s
    tool: t
    expect:
      - {target: result.a, matcher: {contains: x}}
      - {target: result.b, matcher: {exact: 2}}
      - assert-set:
          name: set
          assertions:
            - {target: result.a, matcher: {exact: 3}}
`

// TestPlannedTargetsAreShared checks that the assertions naming the same
// target share one copy of its text, and those naming the same matcher
// one copy of its key (judging compares them for every assertion, which
// is cheap only between equal addresses; the loader gives each assertion
// its own copies), and that the text is still the target as written.
func TestPlannedTargetsAreShared(t *testing.T) {
	p, err := plan.BuildWith([]*config.Suite{load(t, repeatedTargets)}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	one, two := p.Tests[0].Assertions, p.Tests[1].Assertions
	member := two[2].Members[0]
	want := []string{"result.a", "result.b", "result.a", "result.b", "result.a"}
	for i, a := range []*plan.Assertion{one[0], one[1], two[0], two[1], member} {
		if a.Spec.Target != want[i] {
			t.Errorf("assertion %d: target %q, want %q", i, a.Spec.Target, want[i])
		}
	}
	same := func(a, b *plan.Assertion) bool {
		return unsafe.StringData(a.Spec.Target) == unsafe.StringData(b.Spec.Target)
	}
	if !same(one[0], two[0]) || !same(one[0], member) || !same(one[1], two[1]) {
		t.Error("assertions naming the same target hold different copies of its text")
	}
	// So do the matcher keys, composition leaves included.
	exact := []*config.Matcher{&one[0].Spec.Matcher, one[1].Spec.Matcher.Children[0], &two[1].Spec.Matcher, &member.Spec.Matcher}
	contains := []*config.Matcher{one[1].Spec.Matcher.Children[1], &two[0].Spec.Matcher}
	for _, group := range [][]*config.Matcher{exact, contains} {
		for _, m := range group {
			if m.Key != group[0].Key || unsafe.StringData(m.Key) != unsafe.StringData(group[0].Key) {
				t.Errorf("matcher key %q at %s is not the shared copy of %q", m.Key, m.Pos.Pointer, group[0].Key)
			}
		}
	}
}
