package run_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// scoringPlugin serves the matchers the scoring and composition tests use:
// eq (equality of JSON), has (substring of a string) and re (a regular
// expression; a bad one is an invalid argument, as in the text plugin).
// The keys are not v1 matcher keys, so the loader leaves their arguments
// to the plugin, which is what these tests exercise.
func scoringPlugin() *sdk.Plugin {
	str := func(raw json.RawMessage) string {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	return &sdk.Plugin{Name: "scoring", Version: "1.0.0", Matchers: map[string]sdk.Matcher{
		"eq": &eqMatcher{},
		"has": sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
			if strings.Contains(str(in.Actual), str(in.Argument)) {
				return sdk.Pass(), nil
			}
			return sdk.Fail(sdk.Failure{Expected: in.Argument, Actual: in.Actual, Note: "substring not found"}), nil
		}),
		"re": reMatcher{},
		// wrapped rejects every argument with an error that wraps another
		// invalid-argument error, as a family helper around a shared check
		// does.
		"wrapped": wrappedMatcher{},
	}}
}

// wrappedMatcher refuses every argument, twice marked as invalid.
type wrappedMatcher struct{}

func (wrappedMatcher) CheckArgument(string, json.RawMessage) error {
	return sdk.InvalidArgument("%w", sdk.InvalidArgument("wrapped: never valid"))
}

func (m wrappedMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	return sdk.MatchResult{}, m.CheckArgument(in.Key, in.Argument)
}

// reMatcher is a regular-expression matcher that vets its argument.
type reMatcher struct{}

func (reMatcher) CheckArgument(_ string, arg json.RawMessage) error {
	var s string
	_ = json.Unmarshal(arg, &s)
	if _, err := regexp.Compile(s); err != nil {
		return sdk.InvalidArgument("invalid regex: %v", err)
	}
	return nil
}

func (m reMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if err := m.CheckArgument(in.Key, in.Argument); err != nil {
		return sdk.MatchResult{}, err
	}
	var pattern, actual string
	_ = json.Unmarshal(in.Argument, &pattern)
	_ = json.Unmarshal(in.Actual, &actual)
	if regexp.MustCompile(pattern).MatchString(actual) {
		return sdk.Pass(), nil
	}
	return sdk.MatchResult{Failure: &sdk.Failure{Expected: in.Argument, Actual: in.Actual, Extra: map[string]any{"match": nil}}}, nil
}

// setupScoring loads a suite (DEMO is the stdio demo server, URL an HTTP
// one when given) and plans it against the scoring plugin.
func setupScoring(t *testing.T, suite, url string) (*plan.Plan, *plugin.Host) {
	t.Helper()
	suite = strings.ReplaceAll(withDemo(t, suite), "URL", url)
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := scoringPlugin()
	dir := t.TempDir()
	writeManifest(t, dir, p)
	pl, err := plan.BuildWith([]*config.Suite{s}, plugin.NewRegistry([]plugin.Source{{Dir: dir}}), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{})
	t.Cleanup(func() { h.Close(); l.Close() })
	return pl, h
}

// runScoring runs the plan and indexes the tests by name.
func runScoring(t *testing.T, pl *plan.Plan, h *plugin.Host) (*report.Run, map[string]report.Test) {
	t.Helper()
	res := run.Execute(context.Background(), pl, run.Options{Host: h, ToolVersion: "test"})
	out := map[string]report.Test{}
	for _, tr := range res.Tests {
		out[tr.Name] = tr
	}
	return res, out
}

const compositions = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: not passes when the inner fails
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - {target: "result.content[0].text", matcher: {not: {has: "error"}}}
  - name: anyOf with one passing branch
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - {target: "result.content[0].text", matcher: {anyOf: [{eq: "nope"}, {has: "there"}, {re: "^x"}]}}
  - name: allOf fails and says which branch
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - {target: "result.content[0].text", matcher: {allOf: [{has: "hi"}, {not: {has: "there"}}]}}
  - name: oneOf fails when two pass
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - {target: "result.content[0].text", matcher: {oneOf: [{has: "hi"}, {has: "there"}]}}
  - name: nesting behaves the obvious way
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - target: "result.content[0].text"
        matcher:
          allOf:
            - anyOf: [{eq: "nope"}, {re: "t.ere$"}]
            - not: {oneOf: [{has: "a"}, {has: "b"}, {has: "c"}]}
            - oneOf: [{has: "hi"}, {has: "zz"}]
  - name: an inner structural error surfaces unchanged
    server: demo
    tool: echo
    args: {message: "hi there"}
    expect:
      - {target: "result.content[0].text", matcher: {anyOf: [{eq: "hi there"}, {re: "("}]}}
  - name: a missing target fails the composition
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[3].text", matcher: {not: {has: "x"}}}
`

func TestComposedMatchers(t *testing.T) {
	pl, h := setupScoring(t, compositions, "")
	res, tests := runScoring(t, pl, h)
	want := map[string]report.Status{
		"not passes when the inner fails":              report.StatusPassed,
		"anyOf with one passing branch":                report.StatusPassed,
		"allOf fails and says which branch":            report.StatusFailed,
		"oneOf fails when two pass":                    report.StatusFailed,
		"nesting behaves the obvious way":              report.StatusPassed,
		"an inner structural error surfaces unchanged": report.StatusErrored,
		"a missing target fails the composition":       report.StatusFailed,
	}
	for name, st := range want {
		tr := tests[name]
		if tr.Status != st {
			t.Errorf("%s: %s, want %s: %+v", name, tr.Status, st, tr.Assertions)
		}
	}
	if res.ExitCode != 2 {
		t.Errorf("exit %d, want 2 (an errored composition)", res.ExitCode)
	}

	a := tests["allOf fails and says which branch"].Assertions[0]
	if a.Matcher != "allOf" || a.Target != "result.content[0].text" {
		t.Errorf("assertion = %+v", a)
	}
	var f struct {
		Actual   string `json:"actual"`
		Note     string `json:"note"`
		Branches []struct {
			Matcher  string          `json:"matcher"`
			Argument json.RawMessage `json:"argument"`
			Status   string          `json:"status"`
			Note     string          `json:"note"`
			Failure  json.RawMessage `json:"failure"`
			Branches []struct {
				Matcher string `json:"matcher"`
				Status  string `json:"status"`
			} `json:"branches"`
		} `json:"branches"`
	}
	if err := json.Unmarshal(a.Failure, &f); err != nil {
		t.Fatalf("failure %s: %v", a.Failure, err)
	}
	if f.Actual != "hi there" || f.Note != "1 of 2 branches failed; allOf needs all of them" || len(f.Branches) != 2 {
		t.Fatalf("failure = %s", a.Failure)
	}
	if b := f.Branches[0]; b.Matcher != "has" || b.Status != "passed" || string(b.Argument) != `"hi"` || b.Failure != nil {
		t.Errorf("branch 0 = %+v", b)
	}
	b := f.Branches[1]
	if b.Matcher != "not" || b.Status != "failed" || b.Note != "the inner matcher passed, so not fails" ||
		len(b.Branches) != 1 || b.Branches[0].Matcher != "has" || b.Branches[0].Status != "passed" {
		t.Errorf("branch 1 = %+v", b)
	}

	oneOf := tests["oneOf fails when two pass"].Assertions[0]
	if !strings.Contains(string(oneOf.Failure), "2 of 2 branches passed; oneOf needs exactly one") {
		t.Errorf("oneOf failure = %s", oneOf.Failure)
	}

	bad := tests["an inner structural error surfaces unchanged"].Assertions[0]
	if bad.Status != report.StatusErrored || !strings.HasPrefix(bad.Error, sdk.ErrInvalidArgument.Error()) ||
		!strings.Contains(bad.Error, "invalid regex: error parsing regexp: missing closing )") || bad.Plugin != "scoring@1.0.0" {
		t.Errorf("inner error = %+v", bad)
	}
	if !strings.Contains(string(tests["a missing target fails the composition"].Assertions[0].Failure), "target not found") {
		t.Errorf("missing target = %+v", tests["a missing target fails the composition"].Assertions[0])
	}
}

// TestCompositionLeavesShareOneBatch checks that every leaf of every
// composition of a test goes to the plugin in the same call as the plain
// assertions (the batch is not split per leaf).
func TestCompositionLeavesShareOneBatch(t *testing.T) {
	pl, h := setupScoring(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    args: {message: "abc"}
    expect:
      - {target: "result.content[0].text", matcher: {anyOf: [{eq: "x"}, {has: "b"}, {not: {has: "z"}}]}}
      - {target: "result.content[0].text", matcher: {has: "a"}}
      - assert-set: {assertions: [{target: "result.content[0].text", matcher: {allOf: [{has: "c"}, {re: "^a"}]}}]}
`, "")
	var leaves []string
	for _, a := range pl.Tests[0].Assertions {
		a.Leaves(func(l plan.Leaf) { leaves = append(leaves, l.Matcher.Key) })
	}
	if strings.Join(leaves, ",") != "eq,has,has,has,has,re" {
		t.Fatalf("leaves = %v", leaves)
	}
	_, tests := runScoring(t, pl, h)
	if tests["t"].Status != report.StatusPassed {
		t.Fatalf("%+v", tests["t"])
	}
}

// TestCheckArgumentsReachesCompositionLeaves checks that a bad argument
// inside a composition or an assert-set is a located suite error before any
// server starts, as it would be on its own.
func TestCheckArgumentsReachesCompositionLeaves(t *testing.T) {
	pl, h := setupScoring(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    args: {message: "abc"}
    expect:
      - {target: "result", matcher: {not: {anyOf: [{has: "b"}, {re: "(" }]}}}
      - assert-set: {assertions: [{target: "result", matcher: {re: "[" }}]}
`, "")
	err := assert.CheckArguments(context.Background(), h, pl)
	var errs config.Errors
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("error = %v", err)
	}
	if !strings.Contains(errs[0].Error(), "/tools/0/expect/0/matcher/not/anyOf/1/re: invalid matcher argument: invalid regex") ||
		!strings.Contains(errs[1].Error(), "/tools/0/expect/1/assert-set/assertions/0/matcher/re: invalid matcher argument: invalid regex") {
		t.Errorf("errors = %v", errs)
	}
}

// TestInvalidArgumentSaidOnce checks that an argument error that wraps
// another says "invalid matcher argument" once, both when validate vets
// the argument and when the run meets it.
func TestInvalidArgumentSaidOnce(t *testing.T) {
	pl, h := setupScoring(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    args: {message: "abc"}
    expect:
      - {target: "result", matcher: {wrapped: 1}}
`, "")
	const want = "invalid matcher argument: wrapped: never valid"
	err := assert.CheckArguments(context.Background(), h, pl)
	if err == nil || !strings.HasSuffix(err.Error(), "/tools/0/expect/0/matcher/wrapped: "+want) {
		t.Errorf("validate: %v", err)
	}
	_, tests := runScoring(t, pl, h)
	got := tests["t"]
	if got.Status != report.StatusErrored || len(got.Assertions) != 1 || got.Assertions[0].Error != want {
		t.Errorf("run: %+v", got)
	}
}
