package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/config"
)

// ErrBadTargetVersion is wrapped when --target-version names no revision.
var ErrBadTargetVersion = errors.New("invalid target version")

// VersionSuffix is what a test fanned out over several revisions has
// appended to its ID and name: " [2026-07-28]".
func VersionSuffix(version string) string { return " [" + version + "]" }

// targetVersions gives the suite's planned tests, b.plan.Tests[first:],
// the protocol revision they run at. A suite without target_versions
// keeps the run's revision (Test.ProtocolVersion stays empty). With
// --target-version, the suite runs at that revision, which must be one of
// its list. Otherwise it runs at every listed revision in turn: with one
// revision its tests simply carry it; with several each test is planned
// once per revision, revision after revision in the suite's order, its ID
// and name suffixed with VersionSuffix so that they stay unique, and the
// suite's share of Total and Selected is counted once per revision.
func (b *builder) targetVersions(s *config.Suite, first, totalBefore, selectedBefore int) {
	if len(s.TargetVersions) == 0 {
		return
	}
	versions := s.TargetVersions
	if v := b.targetVersion; v != "" {
		if !slices.Contains(s.TargetVersions, v) {
			if b.selected > selectedBefore {
				pos := s.Blocks["target_versions"]
				b.errs = append(b.errs, &config.Error{File: pos.File, Line: pos.Line, Col: pos.Col, Pointer: pos.Pointer,
					Msg:  fmt.Sprintf("--target-version %s is not in the suite's target_versions", v),
					Hint: "the suite lists " + strings.Join(s.TargetVersions, ", ")})
			}
			return
		}
		versions = []string{v}
	}
	planned := b.plan.Tests[first:]
	if len(versions) == 1 {
		for _, t := range planned {
			t.ProtocolVersion = versions[0]
		}
		return
	}
	n := len(versions)
	b.plan.Total += (n - 1) * (b.plan.Total - totalBefore)
	b.selected += (n - 1) * (b.selected - selectedBefore)
	out := make([]*Test, 0, n*len(planned))
	for _, v := range versions {
		clones := make(map[*Test]*Test, len(planned))
		for _, t := range planned {
			c := *t
			c.ProtocolVersion = v
			c.ID += VersionSuffix(v)
			c.Name += VersionSuffix(v)
			clones[t] = &c
			out = append(out, &c)
		}
		// A test waits for the producers of its captures at its own
		// revision: each revision's run of the suite is self-contained.
		for _, t := range planned {
			c := clones[t]
			c.After = make([]*Test, 0, len(t.After))
			for _, a := range t.After {
				if ac := clones[a]; ac != nil {
					c.After = append(c.After, ac)
				}
			}
		}
	}
	b.plan.Tests = append(b.plan.Tests[:first], out...)
}
