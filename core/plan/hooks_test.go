package plan_test

import (
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

func TestHookFlags(t *testing.T) {
	const tests = `servers: {s: {command: [./s]}}
tools:
  - {name: a, server: s, tool: t, tags: [a]}
`
	for _, tc := range []struct {
		hooks         string
		uses, perTest bool
	}{
		{"", false, false},
		{"hooks: {beforeAll: ./seed.sh, afterAll: [./a, ./b]}\n", true, false},
		{"hooks: {afterEach: ./snap.sh}\n", true, true},
		{"hooks:\n  beforeEach:\n    - {command: ./vars.sh, mode: context}\n", true, true},
	} {
		s := load(t, tc.hooks+tests)
		p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
		if err != nil {
			t.Fatalf("%q: %v", tc.hooks, err)
		}
		if p.UsesHooks() != tc.uses || p.PerTestHooks() != tc.perTest {
			t.Errorf("%q: UsesHooks %v PerTestHooks %v", tc.hooks, p.UsesHooks(), p.PerTestHooks())
		}
		if plan.SuiteUsesHooks(s) != tc.uses || plan.SuitePerTestHooks(s) != tc.perTest {
			t.Errorf("%q: suite flags disagree", tc.hooks)
		}
		// A suite whose tests are all filtered out runs no hook.
		p, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Selection: plan.Selection{Tags: []string{"other"}}})
		if err != nil {
			t.Fatal(err)
		}
		if p.UsesHooks() || p.PerTestHooks() {
			t.Errorf("%q: hooks of a suite with no selected test count", tc.hooks)
		}
	}
}
