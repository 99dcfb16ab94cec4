package config

import (
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// build is the loading of one suite: its file, the files it imports, its
// variables and dotenv files, and the checks that need all of them.
//
// The steps run in this order because each needs the previous one: the
// import graph gives the files; every file's declared names (servers,
// fixtures, rubrics...) let each file check its references on its own,
// with exact positions; variables come from every file and must be
// resolved before any string is interpolated; only then is each file
// read into a typed fragment, and the fragments merged.
type build struct {
	opts   Options
	lookup func(string) (string, bool)

	root   *doc
	loaded map[string]*doc // by absolute path
	order  []*doc          // in the order files were read, for error output
	merge  []*doc          // in merge order: imports before their importer

	extra Errors // errors found after the walk, located by Pos
	warns Errors // warnings found after the walk

	// noSplit parses every file whole (split.go), after an attempt to
	// read one item by item failed.
	noSplit bool
}

// splitFailed reports whether a file read item by item had an item that
// could not be read on its own; the build's result is then void.
func (b *build) splitFailed() bool {
	for _, d := range b.order {
		if d.l.splitFailed {
			return true
		}
	}
	return false
}

// doc is one file of the suite.
type doc struct {
	file string     // the path shown in errors
	abs  string     // the absolute path, identity for cycles and diamonds
	root *yaml.Node // the top-level mapping; nil when unusable
	l    *loader
	vars []*Variable // its variables block
}

func newBuild(opts Options) *build {
	return &build{opts: opts, lookup: opts.lookup(), loaded: map[string]*doc{}}
}

// run loads the suite file at path.
func (b *build) run(path string) *Suite {
	data, err := readFile(path)
	if err != nil {
		b.extra = append(b.extra, readError(path, err))
		return nil
	}
	return b.runData(path, data)
}

// runData loads a suite whose content is data.
func (b *build) runData(path string, data []byte) *Suite {
	abs, err := filepath.Abs(path)
	if err != nil {
		b.extra = append(b.extra, &Error{File: path, Msg: "cannot resolve the suite directory: " + err.Error(), Cause: err})
		return nil
	}
	b.root = b.open(path, abs, data)
	if b.root.root == nil {
		return nil
	}
	b.resolveImports(b.root, []*doc{b.root})

	refs := b.collectRefs()
	sc := b.scope()
	for _, d := range b.merge {
		if d.root != nil {
			d.l.sc = sc // for the items of cut blocks, interpolated as they are read
			d.l.interpolate(d.root, sc)
		}
	}
	frags := make([]*Suite, 0, len(b.merge))
	for _, d := range b.merge {
		if d.root == nil {
			continue
		}
		d.l.refs = refs
		frags = append(frags, d.l.fragment(d.root))
	}
	s := mergeFragments(frags)
	s.File, s.Dir = path, filepath.Dir(abs)
	s.Variables = sc.list
	s.env, s.lookupEnv = sc.dotenv, b.lookup
	for _, d := range b.merge {
		if d != b.root {
			s.Imports = append(s.Imports, d.abs)
		}
	}
	b.finish(s, sc)
	return s
}

// open parses one file and registers it.
func (b *build) open(file, abs string, data []byte) *doc {
	d := &doc{file: file, abs: abs, l: newLoader(file)}
	if !b.noSplit && len(data) >= splitMinSize {
		d.root = d.l.openSplit(data)
	}
	if d.root == nil {
		d.root = d.l.parse(data)
	}
	b.loaded[abs] = d
	b.order = append(b.order, d)
	return d
}

// finish runs the checks that need the merged suite, then the overrides,
// the secrets and the variable warnings.
func (b *build) finish(s *Suite, sc *scope) {
	// A suite of trajectories only judges trace files and needs no server.
	if len(s.Servers) == 0 && len(s.Trajectories) == 0 && !yamlpos.HasKey(yamlpos.Deref(b.root.root), "servers") {
		b.root.l.C.Add(b.root.root, "", `missing required key "servers" in the suite`,
			"declare the servers under test, or import a file that does")
	}
	if s.defaultTest != nil {
		applyDefaultTest(s, s.defaultTest)
	}
	for i, t := range s.Tools {
		t.Index = i
	}
	for i, t := range s.Resources {
		t.Index = i
	}
	for i, t := range s.Prompts {
		t.Index = i
	}
	b.finishKinds(s)
	b.extra = append(b.extra, checkMetricOrder(s)...)
	b.variableWarnings(sc)
	if b.hasErrors() {
		return
	}
	b.applyOverrides(s, sc)
	var short []*Error
	s.Secrets, short = collectSecrets(s)
	b.extra = append(b.extra, short...)
	for _, d := range b.order {
		s.Warnings = append(s.Warnings, yamlpos.SortErrors(d.l.C.Warns)...)
	}
	s.Warnings = append(s.Warnings, b.warns...)
}

// hasErrors reports whether any error has been found so far.
func (b *build) hasErrors() bool {
	if len(b.extra) > 0 {
		return true
	}
	for _, d := range b.order {
		if len(d.l.C.Errs) > 0 {
			return true
		}
	}
	return false
}

// errors returns every error found, file by file in the order the files
// were read (the suite first), each file's errors sorted by position.
func (b *build) errors() Errors {
	byFile := map[string]Errors{}
	var files []string
	addFile := func(f string) {
		if _, ok := byFile[f]; !ok {
			byFile[f] = nil
			files = append(files, f)
		}
	}
	for _, d := range b.order {
		addFile(d.file)
		byFile[d.file] = append(byFile[d.file], d.l.C.Errs...)
	}
	for _, e := range b.extra {
		addFile(e.File)
		byFile[e.File] = append(byFile[e.File], e)
	}
	var out Errors
	for _, f := range files {
		out = append(out, yamlpos.SortErrors(byFile[f])...)
	}
	return out
}
