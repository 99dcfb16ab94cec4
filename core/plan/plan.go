// Package plan turns loaded suites into a plan: the tests to run, each
// assertion's target parsed and its matcher key resolved to a plugin from
// manifests alone. It applies the command-line selection (tags, name
// patterns, profile) and reports the parts of the suites this build cannot
// execute yet. No process is started here; every problem found is a
// located suite error.
package plan

import (
	"errors"
	"fmt"
	"slices"
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

// Test kinds.
const (
	KindTool     = "tool"
	KindResource = "resource"
	KindPrompt   = "prompt"
	// KindComposition is a graph of tool calls (compositions block).
	KindComposition = "composition"
	// KindList reads a whole list, page by page (lists block).
	KindList = "list"
	// KindCompletion asks for argument completions (completions block).
	KindCompletion = "completion"
	// KindCompliance runs built-in compliance checks (compliance block).
	KindCompliance = "compliance"
)

// Plan is what a run will do.
type Plan struct {
	// Suites are the suites planned, in the order given.
	Suites []*config.Suite
	// Tests are the selected tests: each suite's tool tests, then its
	// resource, prompt, composition, list, completion and compliance
	// tests.
	Tests []*Test
	// Matchers lists the plugins the plan's assertions need, in first-use
	// order; only these are started.
	Matchers []*plugin.Found
	// Total is the number of tests before selection, every kind counted.
	Total int
	// Selected is the number of tests the selection kept, every kind
	// counted (Tests only holds the kinds this build runs).
	Selected int
	// EvalsNotRun counts the selected evals (matrix cells) a plan for
	// `mcptest run` leaves out: evals run only under `mcptest eval`.
	EvalsNotRun int
	// Gaps lists what the selected tests need that this build cannot
	// execute yet, each a located "not supported yet" error. Build returns
	// them as its error when Options.Run is set.
	Gaps config.Errors
}

// Test is one planned test.
type Test struct {
	// ID is the test's stable identity: suite file, block and name (with
	// #N appended to repeated names), independent of its position.
	ID string
	// Kind is KindTool, KindResource, KindPrompt, KindComposition,
	// KindList, KindCompletion, KindCompliance or KindAgent; exactly the
	// matching one of Tool, Resource, Prompt, Composition, List,
	// Completion, Compliance and Agent is set.
	Kind string
	// Suite is the suite the test belongs to.
	Suite       *config.Suite
	Tool        *config.ToolTest
	Resource    *config.ResourceTest
	Prompt      *config.PromptTest
	Composition *Composition
	List        *config.ListTest
	Completion  *config.CompletionTest
	Compliance  *Compliance
	Agent       *Agent
	// Trajectory is set for KindTrajectory (no Server then).
	Trajectory *config.TrajectoryTest
	// Eval is set for KindEval (Server set only for a live run).
	Eval *Eval
	// Name, Options and Pos are those of the test, whatever its kind.
	Name    string
	Options *config.TestOptions
	Pos     config.Pos
	// Server is the server the test talks to (an agent test's first
	// server; Agent.Servers lists them all).
	Server *config.Server
	// Assertions are the planned plain assertions, in order.
	Assertions []*Assertion
	// Timeout bounds the call: timeout_ms, else the suite's default, else
	// DefaultTimeout.
	Timeout time.Duration
	// Captures are the values a tool test keeps from its response.
	Captures []*Capture
	// Consumes names the captures the test's request refers to, in first
	// use order.
	Consumes []string
	// After lists the planned tests that capture what Consumes names; the
	// test starts once they have finished.
	After []*Test
	// ProtocolVersion is the MCP revision the test runs at when its suite
	// lists target_versions; "" means the run's revision.
	ProtocolVersion string
	// Files are the paths of the files["path"] targets, relative to the
	// server's fixture copy (files.go).
	Files []string
	// Trial is the 1-based trial of a test run Trials times (--trials);
	// TrialOf is then the ID the test has without its trial suffix. All
	// three are zero for a run without trials.
	Trial, Trials int
	TrialOf       string
}

// Assertion is one planned expect entry: a plain assertion (Plugin set),
// a composed matcher on one target (Matcher set), or an assert-set
// (Members set).
type Assertion struct {
	// Spec is the assertion as loaded, its Target interned: the
	// assertions of a plan that name the same target share one copy of
	// its text (up to maxTargetMemo distinct targets), so judging, which
	// looks a test's targets up again for every assertion, compares them
	// by address instead of byte by byte.
	Spec *config.Assertion
	// Target is the parsed target path; unset for an assert-set.
	Target target.Path
	// Plugin is the matcher plugin serving Spec.Matcher.Key; nil for a
	// composition and an assert-set.
	Plugin *plugin.Found
	// Matcher is the planned matcher tree of a composition (not, anyOf,
	// allOf, oneOf); nil otherwise.
	Matcher *Matcher
	// Members are the planned assertions of an assert-set; nil otherwise.
	Members []*Assertion
}

// Options tune Build.
type Options struct {
	// Selection picks the tests; the zero value keeps them all.
	Selection Selection
	// Run makes the gaps (features that cannot execute yet) errors, and an
	// active selection that keeps no test an error: the plan is for
	// `mcptest run`, not `mcptest validate`.
	Run bool
	// TargetVersion is --target-version: the one protocol revision to run
	// against; "" runs the session default, and each suite that lists
	// target_versions at every revision of its list (fanout.go). With a
	// list, the flag must name one of it.
	TargetVersion string
	// Evals plans the evals block only (mcptest eval); without it the
	// evals are counted in Plan.EvalsNotRun and every other block is
	// planned.
	Evals bool
}

// Build plans the suites against the registry's plugins, keeping every
// test.
func Build(suites []*config.Suite, reg *plugin.Registry) (*Plan, error) {
	return BuildWith(suites, reg, Options{})
}

// BuildWith plans the suites with options.
func BuildWith(suites []*config.Suite, reg *plugin.Registry, opts Options) (*Plan, error) {
	sel := opts.Selection
	if err := sel.Compile(); err != nil {
		return nil, err
	}
	if v := opts.TargetVersion; v != "" && !slices.Contains(config.ProtocolVersions, v) {
		return nil, fmt.Errorf("%w: --target-version %q is not a protocol revision; known: %s", ErrBadTargetVersion, v, strings.Join(config.ProtocolVersions, ", "))
	}
	b := &builder{reg: reg, sel: &sel, plan: &Plan{Suites: suites}, used: map[*plugin.Found]bool{}, targetVersion: opts.TargetVersion, run: opts.Run, evalsOnly: opts.Evals}
	for _, s := range suites {
		b.suite(s)
	}
	p := b.plan
	b.errs = dedupe(b.errs)
	sortErrors(b.errs)
	sortErrors(b.gaps.errs)
	p.Gaps = b.gaps.errs
	p.Selected = b.selected
	switch {
	case len(b.errs) > 0:
		return nil, b.errs
	case opts.Run && len(p.Gaps) > 0:
		return nil, p.Gaps
	case opts.Run && sel.Active() && p.Total > 0 && b.selected == 0:
		return nil, fmt.Errorf("%w: no test matches the selection (%s); %d test(s) in the suites",
			ErrNothingSelected, sel.Describe(), p.Total)
	}
	return p, nil
}

// ErrNothingSelected is returned when a run's selection keeps no test.
var ErrNothingSelected = errors.New("nothing to run")

// builder holds the state of one Build.
type builder struct {
	reg      *plugin.Registry
	sel      *Selection
	plan     *Plan
	used     map[*plugin.Found]bool
	errs     config.Errors
	gaps     gapCollector
	selected int // selected tests of every kind, runnable or not
	// targetVersion is Options.TargetVersion.
	targetVersion string
	// run is Options.Run: the plan is for a run, so what a run needs on
	// disk (fixture directories) must exist.
	run bool
	// evalsOnly is Options.Evals.
	evalsOnly bool
	// stepErrs remembers the step-check errors reported, so a check that
	// defaultTest gives every test is reported once (steps.go).
	stepErrs map[string]bool
	// targets holds parsed targets by their text (checkTarget).
	targets map[string]plannedTarget
	// keys holds the interned matcher keys (internKey).
	keys map[string]string
}

// suite plans the tests of one suite.
func (b *builder) suite(s *config.Suite) {
	// Sized for the usual blocks up front: a suite of 330,000 tests
	// otherwise rehashed its ids and copied its test list ~20 times each.
	n := len(s.Tools) + len(s.Resources) + len(s.Prompts)
	names := make(map[string]int, n)
	b.plan.Tests = slices.Grow(b.plan.Tests, n)
	before, totalBefore := b.selected, b.plan.Total
	first := len(b.plan.Tests)
	add := func(t *Test, extra map[string]bool) {
		b.plan.Total++
		if !b.sel.keeps(t.Name, t.Options.Tags, t.Options.Profile) {
			return
		}
		b.selected++
		t.Suite, t.Timeout = s, timeout(t.Options.TimeoutMS, s.DefaultTimeoutMS)
		b.assertions(t, t.Options.Expect)
		b.fileTargets(t, t.Options.Expect)
		b.gaps.testGaps(t.Options, extra)
		b.stepChecks(t)
		b.plan.Tests = append(b.plan.Tests, t)
	}
	if b.evalsOnly {
		b.evals(s, names, add)
		b.evalVersion(s, first)
		return
	}
	b.countEvals(s)
	for _, tt := range s.Tools {
		add(&Test{ID: rowTestID(s.File, "tools", tt.Name, tt.Row, names), Kind: KindTool, Tool: tt, Name: tt.Name,
			Options: &tt.TestOptions, Pos: tt.Pos, Server: s.Servers[tt.Server]},
			map[string]bool{"inject_error": tt.InjectError != ""})
	}
	for _, rt := range s.Resources {
		add(&Test{ID: rowTestID(s.File, "resources", rt.Name, rt.Row, names), Kind: KindResource, Resource: rt, Name: rt.Name,
			Options: &rt.TestOptions, Pos: rt.Pos, Server: s.Servers[rt.Server]}, nil)
	}
	for _, pt := range s.Prompts {
		add(&Test{ID: rowTestID(s.File, "prompts", pt.Name, pt.Row, names), Kind: KindPrompt, Prompt: pt, Name: pt.Name,
			Options: &pt.TestOptions, Pos: pt.Pos, Server: s.Servers[pt.Server]}, nil)
	}
	for _, c := range s.Compositions {
		if t := b.composition(s, c, names); t != nil {
			add(t, nil)
		}
	}
	b.kinds(s, names, add)
	b.agents(s, names, add)
	b.trajectories(s, names, add)
	b.fixtureScopes(s, b.plan.Tests[first:])
	b.linkCaptures(s, b.plan.Tests[first:])
	b.targetVersions(s, first, totalBefore, before)
}

// assertions plans the expect entries of a test: plain assertions,
// compositions and assert-sets (planentry.go).
func (b *builder) assertions(t *Test, list []*config.Assertion) {
	for _, a := range list {
		if pa := b.entry(a); pa != nil {
			t.Assertions = append(t.Assertions, pa)
		}
	}
}

// resolveOnly checks the targets and matcher keys of assertions that are
// not planned, descending into assert-sets and compositions.
func (b *builder) resolveOnly(list []*config.Assertion) {
	for _, a := range list {
		if a.Set != nil {
			b.resolveOnly(a.Set.Assertions)
			continue
		}
		b.checkTarget(a)
		b.resolveMatcher(&a.Matcher)
	}
}

// resolveMatcher resolves a matcher key, or the leaves of a composition.
func (b *builder) resolveMatcher(m *config.Matcher) *plugin.Found {
	if m.IsComposition() {
		for _, c := range m.Children {
			b.resolveMatcher(c)
		}
		return nil
	}
	f, err := b.reg.Resolve(sdk.KindMatcher, m.Key)
	if err != nil {
		b.errs = append(b.errs, resolveError(b.reg, *m, err))
		return nil
	}
	b.internKey(m)
	return f
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
	if s := plugin.Suggest(m.Key, append(keys, "not", "anyOf", "allOf", "oneOf")); s != "" {
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

// dedupe drops repeated errors: the tests expanded from one test's data
// rows share its positions, so a mistake in it would otherwise be told
// once per row.
func dedupe(errs config.Errors) config.Errors {
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		k := e.Error()
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// sortErrors sorts errors by file, line and column.
func sortErrors(errs config.Errors) {
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].File != errs[j].File {
			return errs[i].File < errs[j].File
		}
		if errs[i].Line != errs[j].Line {
			return errs[i].Line < errs[j].Line
		}
		return errs[i].Col < errs[j].Col
	})
}

func testID(file, block, name string, seen map[string]int) string {
	return rowTestID(file, block, name, nil, seen)
}

// rowTestID is testID for a test that may come from a data row: such a
// test's id holds the name as written (before the row's values went in)
// and the row's suffix, so editing a row's values keeps its id.
func rowTestID(file, block, name string, row *config.DataRow, seen map[string]int) string {
	if row != nil {
		name = row.Template + " [" + row.Suffix + "]"
	}
	// The id before its #n is the key: every id of one seen map has the
	// same file, and no block name holds "::", so it stands for
	// (block, name) without another string per test.
	id := file + "::" + block + "::" + name
	seen[id]++
	if n := seen[id]; n > 1 {
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
