package plan

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/config"
)

// fileTarget matches a target on a file the server wrote:
// files["rel/path"].exists, .text or .unchanged.
var fileTarget = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*files\s*\[\s*"((?:[^"\\]|\\.)*)"\s*\]\s*(?:\.\s*([A-Za-z_]+))?`)
})

// FileFields are the fields of a files["path"] target.
var FileFields = []string{"exists", "text", "unchanged"}

// fileTargets plans the files["path"] targets of a tool test: each path
// must be relative and stay inside the fixture copy, the field must be
// one of FileFields, and the test's server must work on a fixture copy.
// The paths land in t.Files, in first-use order.
func (b *builder) fileTargets(t *Test, list []*config.Assertion) {
	for _, a := range list {
		if a.Set != nil {
			b.fileTargets(t, a.Set.Assertions)
			continue
		}
		m := fileTarget().FindStringSubmatch(a.Target)
		if m == nil {
			continue
		}
		bad := func(msg string) {
			b.errs = append(b.errs, &config.Error{File: a.Pos.File, Line: a.Pos.Line, Col: a.Pos.Col,
				Pointer: a.Pos.Pointer + "/target", Msg: msg})
		}
		rel := strings.ReplaceAll(m[1], `\"`, `"`)
		switch {
		case t.Kind != KindTool:
			bad(`files["…"] targets are for tool tests, whose server works on a fixture copy`)
		case t.Server == nil || t.Server.Fixture == "":
			bad(`target ` + a.Target + ` needs a fixture copy, but this test's server has no fixture: (give the server fixture: DIR so the test has a directory to look in)`)
		case rel == "" || filepath.IsAbs(rel) || !filepath.IsLocal(filepath.FromSlash(rel)):
			bad(`files["` + rel + `"]: the path must be relative and stay inside the fixture copy`)
		case !containsStr(FileFields, m[2]):
			bad(`files["` + rel + `"]: unknown field "` + m[2] + `"; want .exists, .text or .unchanged`)
		default:
			if !containsStr(t.Files, rel) {
				t.Files = append(t.Files, rel)
			}
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
