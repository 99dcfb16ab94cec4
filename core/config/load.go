package config

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/internal/safefile"
)

// Load reads the suite file at path, with its imports, dotenv files and
// environment, and checks it completely before anything runs. On success
// the error is nil and the Suite is fully valid. Otherwise the Suite is
// nil and the error is an Errors value holding every problem found, file
// by file and sorted by line; errors.Is(err, ErrInvalidSuite) holds for
// it, and an unreadable file also matches its cause (for example
// fs.ErrNotExist).
func Load(path string) (*Suite, error) { return LoadWith(path, Options{}) }

// LoadWith is Load with options: dotenv files, strict variables, server
// overrides and a replacement environment.
func LoadWith(path string, opts Options) (*Suite, error) {
	b := newBuild(opts)
	s := b.run(path)
	if b.splitFailed() {
		b = newBuild(opts)
		b.noSplit = true
		s = b.run(path)
	}
	if errs := b.errors(); len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// LoadFiles loads several suite files, concurrently. It returns the suites
// in the order of paths when every file is valid; otherwise it returns nil
// and one Errors value with the errors of all files, suite by suite in the
// order of paths.
func LoadFiles(paths []string) ([]*Suite, error) { return LoadFilesWith(paths, Options{}) }

// LoadFilesWith is LoadFiles with options, applied to every suite.
func LoadFilesWith(paths []string, opts Options) ([]*Suite, error) {
	suites := make([]*Suite, len(paths))
	errs := make([]Errors, len(paths))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := LoadWith(p, opts)
			if err != nil {
				errors.As(err, &errs[i]) // LoadWith only returns Errors
				return
			}
			suites[i] = s
		})
	}
	wg.Wait()
	var all Errors
	for _, es := range errs {
		all = append(all, es...)
	}
	if len(all) > 0 {
		return nil, all
	}
	return suites, nil
}

// maxFileSize bounds a suite, imported or dotenv file, so that a huge
// file fails instead of exhausting memory.
const maxFileSize = 256 << 20

// readFile reads a suite file: a regular file of at most maxFileSize.
// FIFOs, sockets and devices are refused before anything blocks on them,
// and the size is checked before the first read (internal/safefile).
func readFile(path string) ([]byte, error) {
	return safefile.ReadFile(path, maxFileSize)
}

// readError describes a suite file that cannot be read.
func readError(path string, err error) *Error {
	e := &Error{File: path, Cause: err}
	if errors.Is(err, fs.ErrNotExist) {
		e.Msg = "suite file not found"
		if abs, aerr := filepath.Abs(path); aerr == nil && abs != path {
			e.Hint = "looked for " + abs
		}
		return e
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		e.Msg = "cannot read suite file: " + pe.Err.Error()
	} else {
		e.Msg = "cannot read suite file: " + err.Error()
	}
	return e
}

// loader holds the state of reading one file.
type loader struct {
	*yamlpos.Reader

	// refs holds the names declared anywhere in the suite and its imports,
	// for the checks of references (nil entries are not checked).
	refs *refs

	// fixtureUses locates the strings of the file that refer to
	// ${fixture} (validate_fixture.go).
	fixtureUses []Pos

	// Item-by-item reading of a large file (split.go): the cut blocks by
	// their stub node, the scope their items are interpolated with, and
	// whether an item could not be read on its own (the file is then
	// loaded again, parsed whole).
	lazy        map[*yaml.Node]*lazySeq
	sc          *scope
	splitFailed bool

	// toolSlab and assertSlab allocate the per-test objects (slab.go).
	toolSlab   slab[ToolTest]
	assertSlab slab[Assertion]
}

func newLoader(file string) *loader {
	return &loader{Reader: yamlpos.NewReader(file), refs: &refs{}}
}

// parse reads data, which must hold exactly one YAML document, and returns
// its root node, or nil when the document could not be read at all or is
// empty.
func (l *loader) parse(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			l.C.Errs = append(l.C.Errs, &Error{File: l.C.File, Line: 1, Col: 1,
				Msg: "the suite is empty", Hint: "a suite needs at least a servers block"})
			return nil
		}
		l.C.Errs = append(l.C.Errs, yamlpos.SyntaxError(l.C.File, data, err))
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		l.C.Add(&extra, "", "a suite file holds one YAML document, found a second one",
			"remove the --- separator or split the file")
	case !errors.Is(err, io.EOF):
		l.C.Errs = append(l.C.Errs, yamlpos.SyntaxError(l.C.File, data, err))
	}
	if len(doc.Content) == 0 || yamlpos.Deref(doc.Content[0]).ShortTag() == yamlpos.TagNull {
		l.C.Add(&doc, "", "the suite is empty", "a suite needs at least a servers block")
		return nil
	}
	root := doc.Content[0]
	if yamlpos.Deref(root).Kind != yaml.MappingNode {
		l.C.Add(root, "", "expected the suite (an object), found "+yamlpos.Describe(root), "")
		return nil
	}
	return root
}

// loadBytes loads a suite from data with the default options; file names
// it in errors and positions, and its directory is where imports and .env
// are looked up. Tests and the fuzz target use it.
func loadBytes(file string, data []byte) (*Suite, error) {
	return loadBytesWith(file, data, Options{})
}

// loadBytesWith is loadBytes with options.
func loadBytesWith(file string, data []byte, opts Options) (*Suite, error) {
	b := newBuild(opts)
	s := b.runData(file, data)
	if b.splitFailed() {
		b = newBuild(opts)
		b.noSplit = true
		s = b.runData(file, data)
	}
	if errs := b.errors(); len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}
