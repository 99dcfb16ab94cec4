package plan_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

const newKinds = `servers:
  s: {command: [./s]}
lists:
  - {name: tools, server: s, list: tools, tags: [lists]}
  - name: first page
    server: s
    list: resources
    pages: 1
    capture: {next: result.nextCursor}
  - {name: second page, server: s, list: resources, cursor: "${capture:next}"}
completions:
  - name: city
    server: s
    ref: {prompt: travel}
    argument: {name: city, value: "${capture:next}"}
    tags: [completions]
compliance:
  - {name: ids, server: s, check: J01, tags: [protocol]}
  - {name: family, server: s, check: "L*"}
  - {name: every check, server: s, check: "*"}
  - name: handshake
    server: s
    check: initialize
    expect: [{target: result.protocolVersion, matcher: {regex: "^2"}}]
`

func TestPlanListsCompletionsCompliance(t *testing.T) {
	s := load(t, newKinds)
	p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	var kinds, ids []string
	for _, tt := range p.Tests {
		kinds = append(kinds, tt.Kind)
		ids = append(ids, strings.TrimPrefix(tt.ID, s.File+"::"))
	}
	wantKinds := []string{"list", "list", "list", "completion", "compliance", "compliance", "compliance", "compliance"}
	if !slices.Equal(kinds, wantKinds) {
		t.Fatalf("kinds %v", kinds)
	}
	if ids[0] != "lists::tools" || ids[3] != "completions::city" || ids[4] != "compliance::ids" {
		t.Errorf("ids %v", ids)
	}
	// Captures link lists to later lists and to completions.
	first, second, city := p.Tests[1], p.Tests[2], p.Tests[3]
	if len(first.Captures) != 1 || !slices.Equal(second.Consumes, []string{"next"}) || !slices.Contains(second.After, first) ||
		!slices.Contains(city.After, first) {
		t.Errorf("captures: %v %v %v", first.Captures, second.After, city.After)
	}
	ids1, fam, all, hs := p.Tests[4].Compliance, p.Tests[5].Compliance, p.Tests[6].Compliance, p.Tests[7].Compliance
	if len(ids1.Checks) != 1 || ids1.Checks[0].ID != "J01" || ids1.Sequence != "" {
		t.Errorf("J01: %+v", ids1)
	}
	for _, c := range fam.Checks {
		if !strings.HasPrefix(c.ID, "L") {
			t.Errorf("L*: %s", c.ID)
		}
	}
	if len(fam.Checks) < 5 || len(all.Checks) < 40 {
		t.Errorf("L* has %d checks, * has %d", len(fam.Checks), len(all.Checks))
	}
	if hs.Sequence != plan.SequenceInitialize || len(hs.Checks) != 2 || len(p.Tests[7].Assertions) != 1 {
		t.Errorf("initialize: %+v", hs)
	}
	// Compliance entries are selected by tags like any test.
	p, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true, Selection: plan.Selection{Tags: []string{"protocol", "completions"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tests) != 2 || p.Tests[0].Name != "city" || p.Tests[1].Name != "ids" || p.Total != 8 {
		t.Errorf("selected %d of %d", len(p.Tests), p.Total)
	}
}

func TestPlanKindErrors(t *testing.T) {
	s := load(t, `servers:
  s: {command: [./s]}
  rec: {cassette: ./rec.json}
  old: {url: "http://localhost:1/sse", http: {transport: sse}}
tools:
  - name: tool reads a list capture
    server: s
    tool: t
    args: {c: "${capture:next}"}
lists:
  - {name: l, server: s, list: tools, capture: {next: result.nextCursor}}
  - name: header checks on pages
    server: s
    list: tools
    expect:
      response_headers: {x-a: "1"}
      assertions: [{target: pages, matcher: {exact: 1}}]
compliance:
  - {name: typo, server: s, check: J1}
  - {name: no family, server: s, check: "Z*"}
  - {name: self judged, server: s, check: J01, expect: [{target: r, matcher: {exact: 1}}]}
  - {name: replay, server: rec, check: J01}
  - {name: legacy, server: old, check: L01}
`)
	_, err := plan.Build([]*config.Suite{s}, registry(t))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`/tools/0: ${capture:next} is captured by test "l", which does not run before this one`,
		`/lists/1/expect/response_headers: header checks judge the HTTP response of one call; a list test makes several`,
		`/compliance/0/check: unknown compliance check "J1" (did you mean "J01"?`,
		`/compliance/1/check: no compliance check id starts with "Z"`,
		`/compliance/2/expect: check J01 judges itself`,
		`/compliance/3/server: compliance checks probe a live server; server "rec" replays a cassette`,
		`/compliance/4/server: compliance checks speak stdio or Streamable HTTP; server "old" uses the legacy SSE transport`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

func TestPlanFixtureDirectory(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yml")
	src := `servers:
  fs: {command: [./fs, "${fixture}"], fixture: ./data}
tools:
  - {name: t, server: fs, tool: read, args: {path: "${fixture}/a"}}
`
	if err := os.WriteFile(suite, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	// validate plans without a run: a missing directory is not its business.
	if _, err := plan.Build([]*config.Suite{s}, registry(t)); err != nil {
		t.Fatal(err)
	}
	_, err = plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
	if err == nil || !strings.Contains(err.Error(), "2:3: /servers/fs/fixture: fixture "+filepath.Join(dir, "data")+": no such file or directory") {
		t.Fatalf("run error = %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true}); err != nil {
		t.Fatal(err)
	}
}
