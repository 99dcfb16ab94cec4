package plan

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/target"
)

// The plan interns the strings judging compares for every assertion: the
// target text and the matcher key of each entry. The loader gives each
// assertion its own copies, so two equal targets or keys of a large run
// were compared byte by byte, in copies scattered across the heap; one
// shared copy compares by address, and the others are left to the
// collector.

// maxTargetMemo bounds the parsed targets a builder keeps.
const maxTargetMemo = 4096

// plannedTarget is a parsed target with the copy of its text that every
// assertion naming it shares.
type plannedTarget struct {
	text string
	path target.Path
}

// checkTarget parses an assertion's target. A suite repeats a few
// targets across many tests, so parsed paths (immutable) are shared: a
// 330,000-test suite kept one copy of result.isError per test. So is the
// text: a.Target is set to the first copy of an equal string, which
// changes nothing a reader sees but lets judging compare a test's
// targets by address (a 100,000-assertion run compared them byte by byte
// in 100,000 scattered copies), and leaves one copy alive instead of one
// per assertion.
func (b *builder) checkTarget(a *config.Assertion) (plannedTarget, bool) {
	if pt, ok := b.targets[a.Target]; ok {
		a.Target = pt.text
		return pt, true
	}
	path, err := target.Parse(a.Target)
	if err != nil {
		b.errs = append(b.errs, &config.Error{
			File: a.Pos.File, Line: a.Pos.Line, Col: a.Pos.Col, Pointer: a.Pos.Pointer + "/target",
			Msg: fmt.Sprintf("invalid target %q: %v", a.Target, err),
		})
		return plannedTarget{}, false
	}
	pt := plannedTarget{text: a.Target, path: path}
	if len(b.targets) < maxTargetMemo {
		if b.targets == nil {
			b.targets = map[string]plannedTarget{}
		}
		b.targets[a.Target] = pt
	}
	return pt, true
}

// assertion plans one plain assertion; nil when it has errors.
func (b *builder) assertion(a *config.Assertion) *Assertion {
	pt, ok := b.checkTarget(a)
	f := b.resolveMatcher(&a.Matcher)
	if !ok || f == nil {
		return nil
	}
	return &Assertion{Spec: a, Target: pt.path, Plugin: f}
}

// maxKeyMemo bounds the distinct matcher keys a builder interns.
const maxKeyMemo = 1024

// internKey sets m.Key to the first copy of an equal key the builder met.
func (b *builder) internKey(m *config.Matcher) {
	if k, ok := b.keys[m.Key]; ok {
		m.Key = k
		return
	}
	if len(b.keys) < maxKeyMemo {
		if b.keys == nil {
			b.keys = map[string]string{}
		}
		b.keys[m.Key] = m.Key
	}
}
