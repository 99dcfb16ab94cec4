package importer

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadCommandMap marks a --command-map entry that is not FROM=TO.
var ErrBadCommandMap = errors.New("bad command map")

// CommandMap rewrites the server commands of imported files. mcp-assert
// suites name servers the way their author's machine had them (a binary
// in /tmp, `go run pkg@version`, a name on PATH); a user importing them
// says once where those servers live here instead of editing every file.
type CommandMap []commandRule

type commandRule struct {
	from []string
	to   []string
}

// ParseCommandMap reads FROM=TO entries. FROM is either a whole command
// line as the file writes it (program and arguments, separated by single
// spaces) or a program alone; TO is the command line that replaces it,
// split on whitespace.
func ParseCommandMap(entries []string) (CommandMap, error) {
	var m CommandMap
	for _, e := range entries {
		from, to, ok := strings.Cut(e, "=")
		f, t := strings.Fields(from), strings.Fields(to)
		if !ok || len(f) == 0 || len(t) == 0 {
			return nil, fmt.Errorf("--command-map %q: %w: want FROM=TO, both non-empty", e, ErrBadCommandMap)
		}
		m = append(m, commandRule{from: f, to: t})
	}
	return m, nil
}

// apply rewrites cmd by the first rule that matches: a rule naming the
// whole command line wins over one naming only the program, so
// `go run a@v1=./a` and `go=go1.24` can both be given.
func (m CommandMap) apply(cmd []string) []string {
	for _, r := range m {
		if equalWords(r.from, cmd) {
			return append([]string(nil), r.to...)
		}
	}
	for _, r := range m {
		if len(r.from) == 1 && len(cmd) > 0 && r.from[0] == cmd[0] {
			return append(append([]string(nil), r.to...), cmd[1:]...)
		}
	}
	return cmd
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
