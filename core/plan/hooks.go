package plan

import "github.com/mcptest/mcptest/core/config"

// Lifecycle hooks change how a plan runs. A suite's hooks run only when
// at least one of its tests is selected, so these look at the suites of
// the selected tests, not at every suite planned.

// UsesHooks reports whether a suite with selected tests declares hooks.
// Such a run serves nothing from the result cache: hooks exist to change
// state between tests, so an identical request may rightly answer
// differently (the spec: declaring hooks opts the run out of caching).
func (p *Plan) UsesHooks() bool {
	return p.anySuite(SuiteUsesHooks)
}

// PerTestHooks reports whether a suite with selected tests declares
// beforeEach or afterEach. That suite's tests run one at a time, so each
// test's setup and teardown bracket it alone.
func (p *Plan) PerTestHooks() bool {
	return p.anySuite(SuitePerTestHooks)
}

// SuiteUsesHooks reports whether s declares any lifecycle hook.
func SuiteUsesHooks(s *config.Suite) bool {
	h := s.Hooks
	return h != nil && len(h.BeforeAll)+len(h.AfterAll)+len(h.BeforeEach)+len(h.AfterEach) > 0
}

// SuitePerTestHooks reports whether s declares beforeEach or afterEach.
func SuitePerTestHooks(s *config.Suite) bool {
	h := s.Hooks
	return h != nil && len(h.BeforeEach)+len(h.AfterEach) > 0
}

// anySuite reports whether f holds for the suite of a selected test.
func (p *Plan) anySuite(f func(*config.Suite) bool) bool {
	var last *config.Suite
	for _, t := range p.Tests {
		if t.Suite != last {
			last = t.Suite
			if f(last) {
				return true
			}
		}
	}
	return false
}
