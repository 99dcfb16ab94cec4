package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"
)

// Load reads the suite file at path and checks it completely before
// anything runs. On success the error is nil and the Suite is fully valid.
// Otherwise the Suite is nil and the error is an Errors value holding every
// problem of the file, sorted by line; errors.Is(err, ErrInvalidSuite)
// holds for it, and an unreadable file also matches its cause (for example
// fs.ErrNotExist).
func Load(path string) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Errors{readError(path, err)}
	}
	return loadBytes(path, data)
}

// LoadFiles loads several suite files, concurrently. It returns the suites
// in the order of paths when every file is valid; otherwise it returns nil
// and one Errors value with the errors of all files, file by file in the
// order of paths, each file's errors sorted by line.
func LoadFiles(paths []string) ([]*Suite, error) {
	suites := make([]*Suite, len(paths))
	errs := make([]Errors, len(paths))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := Load(p)
			if err != nil {
				errors.As(err, &errs[i]) // Load only returns Errors
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

// loader holds the state of loading one file.
type loader struct {
	c collector

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
}

func newLoader(file string) *loader {
	return &loader{
		c:          collector{file: file},
		merged:     map[*yaml.Node][]entry{},
		expanding:  map[*yaml.Node]bool{},
		jsonMemo:   map[*yaml.Node]json.RawMessage{},
		jsonActive: map[*yaml.Node]bool{},
	}
}

// loadBytes loads a suite from data; file names it in errors and positions.
func loadBytes(file string, data []byte) (*Suite, error) {
	l := newLoader(file)
	s := l.load(data)
	if errs := l.c.sorted(); len(errs) > 0 {
		return nil, errs
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, Errors{{File: file, Msg: "cannot resolve the suite directory: " + err.Error(), cause: err}}
	}
	s.Dir = dir
	return s, nil
}

// load parses data, which must hold exactly one YAML document, and checks
// it. It returns nil when the document could not be read at all.
func (l *loader) load(data []byte) *Suite {
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
	return l.suite(doc.Content[0])
}
