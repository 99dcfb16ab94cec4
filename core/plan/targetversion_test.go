package plan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
)

// loadVersioned loads a suite with the given target_versions line ("" for
// none), a capturing tool test, a test that uses the capture, and a
// resource test.
func loadVersioned(t *testing.T, versions string) *config.Suite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yml")
	text := versions + `
servers:
  s:
    command: ["x"]
tools:
  - {name: make, server: s, tool: create, capture: {id: result.id}}
  - {name: use, server: s, tool: get, args: {id: "${capture:id}"}}
resources:
  - {name: read, server: s, uri: "x://a"}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// summary renders the planned tests as "name@version after [names]".
func summary(p *Plan) string {
	var b strings.Builder
	for _, t := range p.Tests {
		var after []string
		for _, a := range t.After {
			after = append(after, a.Name)
		}
		fmt.Fprintf(&b, "%s@%s after %v\n", t.Name, t.ProtocolVersion, after)
	}
	return b.String()
}

func TestTargetVersionPicksOneOfTheSuiteList(t *testing.T) {
	s := loadVersioned(t, `target_versions: ["2025-06-18", "2025-11-25"]`)
	reg := plugin.NewRegistry(nil)
	build := func(v string) (*Plan, error) {
		return BuildWith([]*config.Suite{s}, reg, Options{Run: true, TargetVersion: v})
	}
	p, err := build("2025-06-18")
	if err != nil {
		t.Fatalf("listed revision refused: %v", err)
	}
	want := "make@2025-06-18 after []\nuse@2025-06-18 after [make]\nread@2025-06-18 after []\n"
	if got := summary(p); got != want || p.Total != 3 || p.Selected != 3 {
		t.Errorf("plan (total %d, selected %d):\n%s", p.Total, p.Selected, got)
	}
	if p.Tests[0].ID != s.File+"::tools::make" {
		t.Errorf("one revision: ID %q has a suffix", p.Tests[0].ID)
	}
	if _, err := build("2024-11-05"); err == nil || !strings.Contains(err.Error(), "not in the suite's target_versions") ||
		!strings.Contains(err.Error(), "the suite lists 2025-06-18, 2025-11-25") {
		t.Errorf("unlisted revision: %v", err)
	}
	if _, err := build("1999-01-01"); !errors.Is(err, ErrBadTargetVersion) {
		t.Errorf("unknown revision: %v", err)
	}
}

func TestTargetVersionsFanOut(t *testing.T) {
	s := loadVersioned(t, `target_versions: ["2026-07-28", "2025-11-25"]`)
	p, err := BuildWith([]*config.Suite{s}, plugin.NewRegistry(nil), Options{Run: true})
	if err != nil {
		t.Fatalf("a list without --target-version fans out: %v", err)
	}
	want := `make [2026-07-28]@2026-07-28 after []
use [2026-07-28]@2026-07-28 after [make [2026-07-28]]
read [2026-07-28]@2026-07-28 after []
make [2025-11-25]@2025-11-25 after []
use [2025-11-25]@2025-11-25 after [make [2025-11-25]]
read [2025-11-25]@2025-11-25 after []
`
	if got := summary(p); got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
	if p.Total != 6 || p.Selected != 6 || len(p.Gaps) != 0 {
		t.Errorf("total %d, selected %d, gaps %v", p.Total, p.Selected, p.Gaps)
	}
	seen := map[string]bool{}
	for _, tt := range p.Tests {
		if seen[tt.ID] {
			t.Errorf("duplicate ID %q", tt.ID)
		}
		seen[tt.ID] = true
	}
	if got := p.Tests[4].ID; got != s.File+"::tools::use [2025-11-25]" {
		t.Errorf("ID = %q", got)
	}
	// The clones share what was planned once, and nothing else.
	if p.Tests[0].Tool != p.Tests[3].Tool || p.Tests[0] == p.Tests[3] || p.Tests[1].After[0] != p.Tests[0] {
		t.Error("clones are not separate tests over the same spec")
	}
}

func TestTargetVersionsSelectionCountsPerRevision(t *testing.T) {
	s := loadVersioned(t, `target_versions: ["2025-06-18", "2025-11-25"]`)
	sel := Selection{Include: []string{"read"}}
	p, err := BuildWith([]*config.Suite{s}, plugin.NewRegistry(nil), Options{Run: true, Selection: sel})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p); got != "read [2025-06-18]@2025-06-18 after []\nread [2025-11-25]@2025-11-25 after []\n" {
		t.Errorf("plan:\n%s", got)
	}
	if p.Total != 6 || p.Selected != 2 {
		t.Errorf("total %d, selected %d", p.Total, p.Selected)
	}
}

func TestNoTargetVersionsKeepsTheRunRevision(t *testing.T) {
	s := loadVersioned(t, "")
	for _, v := range []string{"", "2026-07-28"} {
		p, err := BuildWith([]*config.Suite{s}, plugin.NewRegistry(nil), Options{Run: true, TargetVersion: v})
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(p); got != "make@ after []\nuse@ after [make]\nread@ after []\n" {
			t.Errorf("--target-version %q:\n%s", v, got)
		}
	}
	one := loadVersioned(t, `target_versions: ["2026-07-28"]`)
	p, err := BuildWith([]*config.Suite{one}, plugin.NewRegistry(nil), Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p); got != "make@2026-07-28 after []\nuse@2026-07-28 after [make]\nread@2026-07-28 after []\n" {
		t.Errorf("one listed revision:\n%s", got)
	}
}
