package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"

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
	e := &Error{File: path, cause: err}
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
	c collector

	// refs holds the names declared anywhere in the suite and its imports,
	// for the checks of references (nil entries are not checked).
	refs *refs

	// merge keys: entries of each merge source, and the sources being
	// expanded (cycle detection).
	merged    map[*yaml.Node][]entry
	expanding map[*yaml.Node]bool

	// YAML to JSON: the JSON of each alias target (nil when it failed),
	// the targets being converted (cycle detection), a scratch buffer and
	// whether the current conversion failed.
	jsonMemo   map[*yaml.Node]json.RawMessage
	jsonActive map[*yaml.Node]bool
	buf        []byte
	jfailed    bool

	// recursive readers: the values being read, and the aliases followed.
	reading      map[*yaml.Node]bool
	aliasFollows int

	// fixtureUses locates the strings of the file that refer to
	// ${fixture} (validate_fixture.go).
	fixtureUses []Pos
}

func newLoader(file string) *loader {
	return &loader{
		c:          collector{file: file},
		refs:       &refs{},
		merged:     map[*yaml.Node][]entry{},
		expanding:  map[*yaml.Node]bool{},
		jsonMemo:   map[*yaml.Node]json.RawMessage{},
		jsonActive: map[*yaml.Node]bool{},
		reading:    map[*yaml.Node]bool{},
	}
}

// parse reads data, which must hold exactly one YAML document, and returns
// its root node, or nil when the document could not be read at all or is
// empty.
func (l *loader) parse(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			l.c.errs = append(l.c.errs, &Error{File: l.c.file, Line: 1, Col: 1,
				Msg: "the suite is empty", Hint: "a suite needs at least a servers block"})
			return nil
		}
		l.c.errs = append(l.c.errs, syntaxError(l.c.file, data, err))
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		l.c.add(&extra, "", "a suite file holds one YAML document, found a second one",
			"remove the --- separator or split the file")
	case !errors.Is(err, io.EOF):
		l.c.errs = append(l.c.errs, syntaxError(l.c.file, data, err))
	}
	if len(doc.Content) == 0 || deref(doc.Content[0]).ShortTag() == tagNull {
		l.c.add(&doc, "", "the suite is empty", "a suite needs at least a servers block")
		return nil
	}
	root := doc.Content[0]
	if deref(root).Kind != yaml.MappingNode {
		l.c.add(root, "", "expected the suite (an object), found "+describe(root), "")
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
	if errs := b.errors(); len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}
