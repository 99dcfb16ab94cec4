package plan_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/sdk"
)

// anyMatcher stands in for real matchers: planning only reads manifests.
type anyMatcher struct{}

func (anyMatcher) Match(context.Context, sdk.MatchInput) (sdk.MatchResult, error) {
	return sdk.Pass(), nil
}

// registry serves the matcher keys the tests use from one manifest.
func registry(t *testing.T) *plugin.Registry {
	t.Helper()
	p := &sdk.Plugin{Name: "text", Version: "1.0.0", Matchers: map[string]sdk.Matcher{
		"exact": anyMatcher{}, "contains": anyMatcher{}, "regex": anyMatcher{},
	}}
	dir := t.TempDir()
	raw, err := inproc.Found(p).Manifest.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "text"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "text", plugin.ManifestFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return plugin.NewRegistry([]plugin.Source{{Dir: dir}})
}

// load writes a suite and loads it.
func load(t *testing.T, src string) *config.Suite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.LoadWith(path, config.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const kinds = `servers:
  s: {command: [./s]}
performance: {default_timeout_ms: 700}
tools:
  - {name: call, server: s, tool: echo, timeout_ms: 50, expect: [{target: result, matcher: {exact: 1}}]}
resources:
  - {name: read, server: s, uri: "x://readme", expect: [{target: result.contents, matcher: {contains: a}}]}
prompts:
  - {name: get, server: s, prompt: triage}
  - {name: get, server: s, prompt: triage}
`

func TestBuildKinds(t *testing.T) {
	s := load(t, kinds)
	p, err := plan.Build([]*config.Suite{s}, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tests) != 4 || p.Total != 4 || p.Selected != 4 || len(p.Gaps) != 0 {
		t.Fatalf("plan = %d tests, total %d, gaps %v", len(p.Tests), p.Total, p.Gaps)
	}
	tool, res, pr, pr2 := p.Tests[0], p.Tests[1], p.Tests[2], p.Tests[3]
	if tool.Kind != plan.KindTool || tool.Tool == nil || tool.Resource != nil || tool.Timeout.Milliseconds() != 50 || len(tool.Assertions) != 1 {
		t.Errorf("tool = %+v", tool)
	}
	if res.Kind != plan.KindResource || res.Resource == nil || res.Tool != nil || res.Name != "read" ||
		res.Server != s.Servers["s"] || res.Timeout.Milliseconds() != 700 || len(res.Assertions) != 1 {
		t.Errorf("resource = %+v", res)
	}
	if pr.Kind != plan.KindPrompt || pr.Prompt == nil || !strings.HasSuffix(pr.ID, "::prompts::get") || !strings.HasSuffix(pr2.ID, "::prompts::get#2") {
		t.Errorf("prompts = %+v %+v", pr, pr2)
	}
	if len(p.Matchers) != 1 {
		t.Errorf("matchers = %v", p.Matchers)
	}
}

const selection = `servers:
  s: {command: [./s]}
tools:
  - {name: login works, server: s, tool: t, tags: [smoke, auth]}
  - {name: login rejects bad passwords, server: s, tool: t, tags: [auth, slow]}
  - {name: search/basic, server: s, tool: t, profile: quick}
  - {name: search/full-text, server: s, tool: t, profile: full}
  - {name: export, server: s, tool: t, profile: standard}
`

func names(p *plan.Plan) []string {
	var out []string
	for _, t := range p.Tests {
		out = append(out, t.Name)
	}
	return out
}

func TestSelection(t *testing.T) {
	s := load(t, selection)
	reg := registry(t)
	cases := []struct {
		sel  plan.Selection
		want []string
	}{
		{plan.Selection{}, []string{"login works", "login rejects bad passwords", "search/basic", "search/full-text", "export"}},
		{plan.Selection{Tags: []string{"smoke", "slow"}}, []string{"login works", "login rejects bad passwords"}},
		{plan.Selection{Tags: []string{"auth"}, SkipTags: []string{"slow"}}, []string{"login works"}},
		{plan.Selection{Include: []string{"login"}}, []string{"login works", "login rejects bad passwords"}},
		{plan.Selection{Include: []string{"search/*"}}, []string{"search/basic", "search/full-text"}},
		{plan.Selection{Include: []string{"*o*"}, Exclude: []string{"login"}}, []string{"export"}},
		{plan.Selection{Include: []string{"search/[bx]asic"}}, []string{"search/basic"}},
		{plan.Selection{Include: []string{"search/?asic"}}, []string{"search/basic"}},
		{plan.Selection{Include: []string{"Login"}}, nil},
		{plan.Selection{Profile: "quick"}, []string{"search/basic"}},
		{plan.Selection{Profile: "standard"}, []string{"login works", "login rejects bad passwords", "search/basic", "export"}},
		{plan.Selection{Profile: "full"}, []string{"login works", "login rejects bad passwords", "search/basic", "search/full-text", "export"}},
	}
	for _, tc := range cases {
		p, err := plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Selection: tc.sel})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.sel.Describe(), got, tc.want)
		}
		if p.Total != 5 || p.Selected != len(tc.want) {
			t.Errorf("%s: total %d selected %d", tc.sel.Describe(), p.Total, p.Selected)
		}
	}
	_, err := plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Run: true, Selection: plan.Selection{Tags: []string{"nope"}}})
	if !errors.Is(err, plan.ErrNothingSelected) || !strings.Contains(err.Error(), "--tag nope") {
		t.Errorf("empty selection error = %v", err)
	}
	for _, bad := range []plan.Selection{{Profile: "slow"}, {Include: []string{"a[b"}}, {Exclude: []string{""}}} {
		if _, err := plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Selection: bad}); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

const gaps = `servers:
  s: {command: [./s]}
  web: {cassette: ./web.json}
hooks:
  beforeAll: ./seed.sh
tools:
  - name: scored
    server: s
    tool: t
    threshold: 0.5
    expect:
      - {target: result, matcher: {not: {exact: 1}}}
      - assert-set: {assertions: [{target: result, matcher: {contains: x}}]}
  - {name: remote, server: web, tool: t, tags: [remote]}
  - {name: plain, server: s, tool: t, tags: [plain]}
evals:
  - {name: judged, server: s, prompt: hi, rubric: "is it good?", tags: [eval]}
`

// No gap is left in this suite: `mcptest run` plans every block but the
// evals, which it counts, and `mcptest eval` plans the evals only.
func TestGaps(t *testing.T) {
	s := load(t, gaps)
	reg := registry(t)
	p, err := plan.Build([]*config.Suite{s}, reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Gaps) != 0 {
		t.Errorf("gaps: %v", p.Gaps)
	}
	p, err = plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Run: true})
	if err != nil || len(p.Tests) != 3 || p.EvalsNotRun != 1 {
		t.Fatalf("run plan: %v, %d tests, %d evals not run", err, len(p.Tests), p.EvalsNotRun)
	}
	p, err = plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Run: true, Evals: true})
	if err != nil || len(p.Tests) != 1 || p.Tests[0].Kind != plan.KindEval || p.Tests[0].Server == nil || p.EvalsNotRun != 0 {
		t.Fatalf("eval plan: %v %+v", err, p)
	}
}

func TestUnknownMatchersInsideCompositionsAndOtherBlocks(t *testing.T) {
	s := load(t, `servers: {s: {command: [./s]}}
tools:
  - name: t
    server: s
    tool: t
    expect:
      - {target: r, matcher: {anyOf: [{exact: 1}, {regx: a}]}}
compliance:
  - {name: c, server: s, check: initialize, expect: [{target: r, matcher: {containz: a}}]}
`)
	_, err := plan.Build([]*config.Suite{s}, registry(t))
	if err == nil || !strings.Contains(err.Error(), `unknown matcher "regx" (did you mean "regex"?`) ||
		!strings.Contains(err.Error(), `unknown matcher "containz" (did you mean "contains"?`) {
		t.Errorf("error = %v", err)
	}
}

// A matrix is the cartesian product of its axes, one test per cell named
// for its coordinates; a live eval (no response) runs against its server.
func TestEvalMatrixCells(t *testing.T) {
	s := load(t, `servers: {s: {command: [./s]}}
evals:
  - name: grid
    server: s
    prompt: p0
    response: fixed
    rubric: good
    matrix: {models: [m1, m2], prompts: [pa, pb, pc]}
  - {name: live, server: s, prompt: go, rubric: good, tags: [live]}
  - {name: models only, server: s, prompt: p, response: r, rubric: good, matrix: {models: [a]}}
`)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true, Evals: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tt := range p.Tests {
		names = append(names, tt.Name)
	}
	want := []string{"grid [model=m1, prompt 1]", "grid [model=m1, prompt 2]", "grid [model=m1, prompt 3]",
		"grid [model=m2, prompt 1]", "grid [model=m2, prompt 2]", "grid [model=m2, prompt 3]", "live", "models only [model=a]"}
	if !slices.Equal(names, want) {
		t.Fatalf("names:\n got %q\nwant %q", names, want)
	}
	if c := p.Tests[4].Eval; c.Cell.Model != "m2" || c.Prompt() != "pb" {
		t.Errorf("cell 5: %+v prompt %q", c.Cell, c.Prompt())
	}
	if p.Tests[6].Server == nil || p.Tests[6].Eval.Prompt() != "go" || p.Tests[0].Server != nil {
		t.Errorf("live eval server %v, fixed eval server %v", p.Tests[6].Server, p.Tests[0].Server)
	}
	// mcptest run counts every cell it leaves to mcptest eval.
	p, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err != nil || p.EvalsNotRun != 8 || len(p.Tests) != 0 {
		t.Fatalf("run: %v %d not run, %d tests", err, p.EvalsNotRun, len(p.Tests))
	}
	p, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true, Evals: true, Selection: plan.Selection{Tags: []string{"live"}}})
	if err != nil || len(p.Tests) != 1 {
		t.Fatalf("eval --tag live: %v", err)
	}
}

// Evals are planned once, not once per target revision: the revision
// matters only to a live run, which speaks the first listed one.
func TestEvalsAreNotFannedOutOverRevisions(t *testing.T) {
	s := load(t, `servers: {s: {command: [./s]}}
target_versions: ["2025-06-18", "2025-11-25"]
evals:
  - {name: e, server: s, prompt: p, rubric: good}
`)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true, Evals: true})
	if err != nil || len(p.Tests) != 1 || p.Tests[0].ProtocolVersion != "2025-06-18" || p.Tests[0].Name != "e" {
		t.Fatalf("plan: %v %+v", err, p.Tests)
	}
}
