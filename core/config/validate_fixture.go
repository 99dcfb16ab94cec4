package config

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Fixture directories. A stdio server may name a directory (fixture:)
// that mcptest copies afresh each time it starts the server; ${fixture}
// expands to the copy's absolute path. The reference is kept as written
// by interpolation and expanded by the runner, so it is only allowed
// where the runner expands it: the server's command and env, and what the
// server's tests send (tool and prompt args and data rows, a resource
// uri, a completion's argument value and context).

// fixtureFields matches the JSON pointers where ${fixture} may appear.
var fixtureFields = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(/servers/[^/]+/(command|env)/[^/]+` +
		`|/tools/[0-9]+/(args|data)(/.*)?` +
		`|/prompts/[0-9]+/args(/.*)?` +
		`|/resources/[0-9]+/uri` +
		`|/completions/[0-9]+/(argument/value|context/[^/]+))$`)
})

// fixtureDir reads a server's fixture: a directory path, relative to the
// file that declares it, returned absolute. Whether it exists is checked
// when a run is planned, so that `mcptest validate` works anywhere.
func (l *loader) fixtureDir(n *yaml.Node, ptr string) (string, bool) {
	p, ok := l.NonEmptyStr(n, ptr, "fixture (the path of a directory)")
	if !ok {
		return "", false
	}
	if strings.Contains(p, "${") {
		l.C.Add(n, ptr, "fixture cannot refer to ${fixture}", "write the path of the original directory")
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(l.C.File), p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		l.C.Add(n, ptr, fmt.Sprintf("cannot resolve fixture %q: %v", p, err), "")
		return "", false
	}
	return abs, true
}

// fixtureUse records a string that refers to ${fixture} and refuses the
// places the runner does not expand it.
func (l *loader) fixtureUse(n *yaml.Node, ptr string) {
	if !fixtureFields().MatchString(ptr) {
		l.C.Add(n, ptr, "${fixture} is not expanded here",
			"it may appear in a server's command and env, and in the args, data, uri or completion argument of the server's tests")
		return
	}
	l.fixtureUses = append(l.fixtureUses, l.pos(n, ptr))
}

// checkFixtures checks, once the suite is merged, that every ${fixture}
// belongs to a server with a fixture: the server itself, or the server of
// the test that holds it. uses are the references of every file.
func checkFixtures(s *Suite, uses []Pos) Errors {
	if len(uses) == 0 {
		return nil // the table of owners below is one entry per test
	}
	var errs Errors
	type owner struct {
		pos    Pos
		server string
	}
	var tests []owner
	for _, t := range s.Tools {
		tests = append(tests, owner{t.Pos, t.Server})
	}
	for _, t := range s.Prompts {
		tests = append(tests, owner{t.Pos, t.Server})
	}
	for _, t := range s.Resources {
		tests = append(tests, owner{t.Pos, t.Server})
	}
	for _, t := range s.Completions {
		tests = append(tests, owner{t.Pos, t.Server})
	}
	for _, u := range uses {
		name := ""
		if rest, ok := strings.CutPrefix(u.Pointer, "/servers/"); ok {
			name, _, _ = strings.Cut(rest, "/")
			name = unescapePointer(name)
		} else {
			for _, o := range tests {
				if o.pos.File == u.File && strings.HasPrefix(u.Pointer, o.pos.Pointer+"/") {
					name = o.server
					break
				}
			}
		}
		srv := s.Servers[name]
		if srv == nil || srv.Fixture != "" {
			// An unknown server is reported where it is named.
			continue
		}
		errs = append(errs, errAt(u, fmt.Sprintf("${fixture} refers to the fixture of server %q, which has none", name),
			fmt.Sprintf("add fixture: ./path/to/dir to servers.%s", name)))
	}
	return errs
}

// unescapePointer decodes one JSON pointer token.
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
