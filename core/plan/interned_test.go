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
// target share one copy of its text (judging finds a test's extracted
// targets by comparing it, which is cheap only between equal addresses),
// that the text is the target as written, and that a plain assertion
// carries its plugin's label.
func TestPlannedTargetsAreShared(t *testing.T) {
	p, err := plan.BuildWith([]*config.Suite{load(t, repeatedTargets)}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	one, two := p.Tests[0].Assertions, p.Tests[1].Assertions
	member := two[2].Members[0]
	for _, a := range []*plan.Assertion{one[0], one[1], two[0], two[1], member} {
		if a.TargetText != a.Spec.Target || a.TargetString() != a.Spec.Target {
			t.Errorf("target text %q, TargetString %q, as written %q", a.TargetText, a.TargetString(), a.Spec.Target)
		}
	}
	same := func(a, b *plan.Assertion) bool {
		return unsafe.StringData(a.TargetText) == unsafe.StringData(b.TargetText)
	}
	if !same(one[0], two[0]) || !same(one[0], member) || !same(one[1], two[1]) {
		t.Error("assertions naming the same target hold different copies of its text")
	}
	if same(one[0], one[1]) {
		t.Error("result.a and result.b share a text")
	}
	for _, a := range []*plan.Assertion{one[0], two[0], two[1], member} {
		if a.PluginLabel == "" || a.PluginLabel != a.Plugin.Label() || a.PluginName() != a.PluginLabel {
			t.Errorf("%s: plugin label %q, PluginName %q, want %q", a.Spec.Target, a.PluginLabel, a.PluginName(), a.Plugin.Label())
		}
	}
	if one[1].PluginName() != "" || two[2].PluginName() != "" || two[2].TargetString() != "" {
		t.Error("a composition or an assert-set has a plugin label, or the set a target")
	}
	// An assertion built by hand, outside Build, falls back to its spec.
	hand := &plan.Assertion{Spec: &config.Assertion{Target: "result.x"}, Plugin: one[0].Plugin}
	if hand.TargetString() != "result.x" || hand.PluginName() != one[0].Plugin.Label() {
		t.Errorf("by hand: target %q, plugin %q", hand.TargetString(), hand.PluginName())
	}
}
