package importer

import (
	"net/url"
	"path/filepath"
	"strings"
)

// roots converts mcp-assert's client roots, which may be bare paths
// ("/srv/work", "{{fixture}}"), into mcptest's {uri, name} objects. A
// root naming {{fixture}} becomes the file URI of the fixture directory
// itself: mcptest does not expand ${fixture} in client mocks, since a
// server usually asks for roots once, before any test's copy exists.
// fixtureDir is "" when the file has no fixture directory; noted is set
// when a root was pointed at the original directory.
func roots(in []any, fixtureDir string) (out []any, noted bool) {
	out = make([]any, 0, len(in))
	for _, r := range in {
		s, ok := r.(string)
		if !ok {
			out = append(out, r)
			continue
		}
		if strings.Contains(s, "{{") && fixtureDir != "" {
			s = placeholder().ReplaceAllString(s, filepath.ToSlash(fixtureDir))
			noted = true
		}
		uri := s
		if !strings.Contains(s, "://") {
			abs, err := filepath.Abs(s)
			if err == nil {
				s = abs
			}
			uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(s)}).String()
		}
		out = append(out, map[string]any{"uri": uri, "name": filepath.Base(s)})
	}
	return out, noted
}
