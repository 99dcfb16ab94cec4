package config

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/config/internal/vars"
)

// scope is what ${NAME} can see: the declared variables of every file
// (merged: a later file overrides an earlier one, the suite overrides its
// imports), the dotenv files and the process environment.
//
// Precedence, highest first: the process environment, the dotenv files,
// a from_env variable's default, a literal value. A declared variable's
// name is looked up in the environment first, so CI can override any
// variable without editing the suite.
type scope struct {
	lookup func(string) (string, bool)
	dotenv map[string]string
	vars   map[string]*Variable
	list   []*Variable

	// unresolved records every reference to a name with no value, in the
	// order met.
	unresolved []unresolvedRef
}

// unresolvedRef is one reference to a name with no value.
type unresolvedRef struct {
	name string
	err  *Error // located at the string that holds the reference
}

// scope reads the variables of every file and the dotenv files, and
// resolves every variable.
func (b *build) scope() *scope {
	sc := &scope{lookup: b.lookup, dotenv: b.dotenv(), vars: map[string]*Variable{}}
	for _, d := range b.merge {
		if d.root == nil {
			continue
		}
		for _, v := range d.l.variables(d.root) {
			if old := sc.vars[v.Name]; old != nil {
				for i, o := range sc.list {
					if o == old {
						sc.list[i] = v
					}
				}
			} else {
				sc.list = append(sc.list, v)
			}
			sc.vars[v.Name] = v
		}
	}
	for _, v := range sc.list {
		sc.resolve(v)
	}
	return sc
}

// env looks name up in the process environment, then the dotenv files.
func (sc *scope) env(name string) (string, bool) {
	return vars.Env(sc.lookup, sc.dotenv, name)
}

// resolve computes the value of a declared variable.
func (sc *scope) resolve(v *Variable) {
	v.Resolved, v.Unresolved = vars.Resolve(sc.env, v.Name, v.FromEnv, v.Default, v.Value)
}

// get returns the value ${name} expands to, and whether there is one.
func (sc *scope) get(name string) (string, bool) {
	if v := sc.vars[name]; v != nil {
		return v.Resolved, !v.Unresolved
	}
	return sc.env(name)
}

// dotenv reads the .env file beside the suite, when there is one, then the
// --env-file files in order; later values override earlier ones. Each
// file is read like a suite file (readFile: bounded, no FIFOs or devices).
func (b *build) dotenv() map[string]string {
	out, errs := vars.ReadDotenv(vars.DotenvFiles(filepath.Dir(b.root.abs), b.opts.EnvFiles), readFile)
	for _, e := range errs {
		b.extra = append(b.extra, &Error{File: e.File, Msg: e.Msg, Cause: e.Err})
	}
	return out
}

// variableWarnings turns the unresolved references into one warning that
// lists them, or into one error each under strict variables.
func (b *build) variableWarnings(sc *scope) {
	if len(sc.unresolved) == 0 {
		return
	}
	// Document order: file by file in merge order, then by position. The
	// items of a large file are interpolated after the rest of it
	// (split.go), so the order they were met in is not that order.
	rank := make(map[string]int, len(b.merge))
	for i, d := range b.merge {
		if _, ok := rank[d.file]; !ok {
			rank[d.file] = i
		}
	}
	slices.SortStableFunc(sc.unresolved, func(x, y unresolvedRef) int {
		a, c := x.err, y.err
		return cmp.Or(cmp.Compare(rank[a.File], rank[c.File]), cmp.Compare(a.Line, c.Line), cmp.Compare(a.Col, c.Col))
	})
	if b.opts.strict() {
		for _, u := range sc.unresolved {
			b.extra = append(b.extra, u.err)
		}
		return
	}
	var parts []string
	seen := map[string]bool{}
	for _, u := range sc.unresolved {
		if seen[u.name] {
			continue
		}
		seen[u.name] = true
		parts = append(parts, fmt.Sprintf("%s (%s:%d:%d)", u.name, u.err.File, u.err.Line, u.err.Col))
	}
	first := sc.unresolved[0].err
	b.warns = append(b.warns, &Error{File: first.File, Line: first.Line, Col: first.Col, Pointer: first.Pointer,
		Msg:  "unresolved variables expand to empty strings: " + strings.Join(parts, ", "),
		Hint: "set them, write ${NAME:-default}, or set " + StrictVarsEnv + "=1 to make this an error"})
}
