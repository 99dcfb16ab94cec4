package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// captures reads a tool test's capture map: names (identifiers, as in
// ${capture:NAME}) mapped to target paths. The paths are parsed when the
// suite is planned, next to the assertion targets; names must be unique
// within the map here, and across the suite at plan time.
func (l *loader) captures(n *yaml.Node, ptr string) []*Capture {
	es, ok := l.mapping(n, ptr, "capture (names mapped to target paths)")
	if !ok {
		return nil
	}
	out := make([]*Capture, 0, len(es))
	for _, e := range es {
		ep := child(ptr, e.key)
		if !identifier.MatchString(e.key) {
			l.c.add(e.keyNode, ep, fmt.Sprintf("invalid capture name %q", e.key),
				"a capture name is letters, digits and _, not starting with a digit, as in ${capture:issue_id}")
			continue
		}
		path, ok := l.nonEmptyStr(e.value, ep, "a target path, such as result.structuredContent.id")
		if !ok {
			continue
		}
		out = append(out, &Capture{Name: e.key, Target: path, Pos: l.pos(e.value, ep)})
	}
	return out
}
