// Package plan turns loaded suites into a plan: the tests to run, each
// assertion's target parsed and its matcher key resolved to a plugin from
// manifests alone. No process is started here; every problem found is a
// located suite error.
package plan

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
)

// DefaultTimeout bounds a test that sets no timeout_ms and whose suite sets
// no performance.default_timeout_ms.
const DefaultTimeout = 30 * time.Second

// Plan is what a run will do.
type Plan struct {
	Suites []*config.Suite
	Tests  []*Test
	// Matchers lists the plugins the plan's assertions need, in first-use
	// order; only these are started.
	Matchers []*plugin.Found
}

// Test is one planned test.
type Test struct {
	// ID is the test's stable identity: suite file, block and name (with
	// #N appended to repeated names), independent of its position.
	ID         string
	Suite      *config.Suite
	Tool       *config.ToolTest
	Server     *config.Server
	Assertions []*Assertion
	Timeout    time.Duration
}

// Assertion is one planned assertion.
type Assertion struct {
	Spec   *config.Assertion
	Target target.Path
	Plugin *plugin.Found
}

// Build plans the suites against the registry's plugins.
func Build(suites []*config.Suite, reg *plugin.Registry) (*Plan, error) {
	p := &Plan{Suites: suites}
	var errs config.Errors
	used := map[*plugin.Found]bool{}
	for _, s := range suites {
		names := map[string]int{}
		for _, tt := range s.Tools {
			t := &Test{
				ID:      testID(s.File, "tools", tt.Name, names),
				Suite:   s,
				Tool:    tt,
				Server:  s.Servers[tt.Server],
				Timeout: timeout(tt.TimeoutMS, s.DefaultTimeoutMS),
			}
			for _, a := range tt.Expect {
				pa, err := planAssertion(reg, a)
				if err != nil {
					errs = append(errs, err...)
					continue
				}
				if !used[pa.Plugin] {
					used[pa.Plugin] = true
					p.Matchers = append(p.Matchers, pa.Plugin)
				}
				t.Assertions = append(t.Assertions, pa)
			}
			p.Tests = append(p.Tests, t)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			if errs[i].File != errs[j].File {
				return errs[i].File < errs[j].File
			}
			if errs[i].Line != errs[j].Line {
				return errs[i].Line < errs[j].Line
			}
			return errs[i].Col < errs[j].Col
		})
		return nil, errs
	}
	return p, nil
}

func planAssertion(reg *plugin.Registry, a *config.Assertion) (*Assertion, config.Errors) {
	var errs config.Errors
	pa := &Assertion{Spec: a}
	path, err := target.Parse(a.Target)
	if err != nil {
		errs = append(errs, &config.Error{
			File: a.Pos.File, Line: a.Pos.Line, Col: a.Pos.Col, Pointer: a.Pos.Pointer + "/target",
			Msg: fmt.Sprintf("invalid target %q: %v", a.Target, err),
		})
	}
	pa.Target = path
	f, err := reg.Resolve(sdk.KindMatcher, a.Matcher.Key)
	if err != nil {
		errs = append(errs, resolveError(reg, a.Matcher, err))
	}
	pa.Plugin = f
	return pa, errs
}

// resolveError locates a key-resolution failure at the matcher.
func resolveError(reg *plugin.Registry, m config.Matcher, err error) *config.Error {
	e := &config.Error{File: m.Pos.File, Line: m.Pos.Line, Col: m.Pos.Col, Pointer: m.Pos.Pointer}
	if !errors.Is(err, plugin.ErrUnknownKey) {
		e.Msg = err.Error()
		return e
	}
	keys := reg.Keys(sdk.KindMatcher)
	e.Msg = fmt.Sprintf("unknown matcher %q", m.Key)
	var hints []string
	if s := plugin.Suggest(m.Key, keys); s != "" {
		hints = append(hints, fmt.Sprintf("did you mean %q?", s))
	}
	if len(keys) == 0 {
		hints = append(hints, "no matcher plugins were found; directories searched:"+plugin.SearchedDirs(reg.Sources))
	} else {
		hints = append(hints, "installed matchers: "+strings.Join(keys, ", "))
	}
	e.Hint = strings.Join(hints, " ")
	return e
}

func testID(file, block, name string, seen map[string]int) string {
	seen[name]++
	id := file + "::" + block + "::" + name
	if n := seen[name]; n > 1 {
		id += fmt.Sprintf("#%d", n)
	}
	return id
}

func timeout(testMS, suiteMS int) time.Duration {
	switch {
	case testMS > 0:
		return time.Duration(testMS) * time.Millisecond
	case suiteMS > 0:
		return time.Duration(suiteMS) * time.Millisecond
	}
	return DefaultTimeout
}
