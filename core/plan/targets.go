package plan

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
)

// What the planned assertions of a plan share instead of each holding its
// own: the parsed target and its text, and the label of the plugin.
// Judging reads these for every assertion of every test; shared, they are
// compared by address and made once.

// maxTargetMemo bounds the parsed targets a builder keeps.
const maxTargetMemo = 4096

// plannedTarget is a parsed target with the copy of its text that every
// assertion naming it shares.
type plannedTarget struct {
	text string
	path target.Path
}

// checkTarget parses an assertion's target. A suite repeats a few
// targets across many tests, so parsed paths (immutable) and their text
// are shared: a 330,000-test suite kept one copy of result.isError per
// test.
func (b *builder) checkTarget(a *config.Assertion) (plannedTarget, bool) {
	if pt, ok := b.targets[a.Target]; ok {
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

// label returns f's label, made once per plugin of the plan.
func (b *builder) label(f *plugin.Found) string {
	if l, ok := b.labels[f]; ok {
		return l
	}
	if b.labels == nil {
		b.labels = map[*plugin.Found]string{}
	}
	l := f.Label()
	b.labels[f] = l
	return l
}

// assertion plans one plain assertion; nil when it has errors.
func (b *builder) assertion(a *config.Assertion) *Assertion {
	pt, ok := b.checkTarget(a)
	f := b.resolveMatcher(&a.Matcher)
	if !ok || f == nil {
		return nil
	}
	return &Assertion{Spec: a, Target: pt.path, TargetText: pt.text, Plugin: f, PluginLabel: b.label(f)}
}

// TargetString is the assertion's target text: TargetText, or Spec.Target
// for an assertion built outside Build.
func (a *Assertion) TargetString() string {
	if a.TargetText != "" {
		return a.TargetText
	}
	return a.Spec.Target
}

// PluginName is the label (name@version) of the assertion's plugin:
// PluginLabel, or the plugin's own for an assertion built outside Build;
// "" without a plugin.
func (a *Assertion) PluginName() string {
	switch {
	case a.PluginLabel != "":
		return a.PluginLabel
	case a.Plugin != nil:
		return a.Plugin.Label()
	}
	return ""
}
