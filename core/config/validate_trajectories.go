package config

import (
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// trajectoryKeys are the keys of one trajectory test.
var trajectoryKeys = yamlpos.NewObjectSpec("a trajectory test",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("trace"),
	yamlpos.RequiredKey("expect"),
	yamlpos.Key("tags"),
	yamlpos.Key("profile"),
)

// trajectories reads the trajectories block into s.
func (l *loader) trajectories(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the trajectories block (an array of trajectory tests)")
	if !ok {
		return
	}
	for i, item := range items {
		if t := l.trajectory(item, yamlpos.Index(ptr, i)); t != nil {
			s.Trajectories = append(s.Trajectories, t)
		}
	}
}

// trajectory reads one trajectory test. The trace file is not opened
// here: it is usually written by an intercept session that runs after the
// suite was written, so its absence is a run-time error of the test.
func (l *loader) trajectory(n *yaml.Node, ptr string) *TrajectoryTest {
	f, ok := l.Object(n, ptr, trajectoryKeys)
	if !ok {
		return nil
	}
	t := &TrajectoryTest{Pos: l.pos(n, ptr)}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
		case "trace":
			t.Trace, _ = l.NonEmptyStr(e.Value, ep, "the trace file (a JSONL file mcptest intercept wrote)")
			if t.Trace != "" {
				t.TracePath = t.Trace
				if !filepath.IsAbs(t.TracePath) {
					t.TracePath = filepath.Join(filepath.Dir(l.C.File), t.TracePath)
				}
			}
		case "expect":
			t.Expect, t.ExpectOptions = l.expect(e.Value, ep)
		case "tags":
			t.Tags, _ = l.StringList(e.Value, ep, "tags", true)
		case "profile":
			t.Profile, _ = l.Enum(e.Value, ep, "profile", ProfileQuick, ProfileStandard, ProfileFull)
		}
	}
	return t
}
