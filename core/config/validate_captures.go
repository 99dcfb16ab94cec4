package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// captures reads a tool test's capture map: names (identifiers, as in
// ${capture:NAME}) mapped to target paths. The paths are parsed when the
// suite is planned, next to the assertion targets; names must be unique
// within the map here, and across the suite at plan time.
func (l *loader) captures(n *yaml.Node, ptr string) []*Capture {
	es, ok := l.Mapping(n, ptr, "capture (names mapped to target paths)")
	if !ok {
		return nil
	}
	out := make([]*Capture, 0, len(es))
	for _, e := range es {
		ep := yamlpos.Child(ptr, e.Key)
		if !identifier().MatchString(e.Key) {
			l.C.Add(e.KeyNode, ep, fmt.Sprintf("invalid capture name %q", e.Key),
				"a capture name is letters, digits and _, not starting with a digit, as in ${capture:issue_id}")
			continue
		}
		path, ok := l.NonEmptyStr(e.Value, ep, "a target path, such as result.structuredContent.id")
		if !ok {
			continue
		}
		out = append(out, &Capture{Name: e.Key, Target: path, Pos: l.pos(e.Value, ep)})
	}
	return out
}
