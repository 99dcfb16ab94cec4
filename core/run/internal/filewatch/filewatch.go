// Package filewatch gives the files["path"] targets their values: the
// files of a fixture copy are noted before a test's call, and after it
// each one's existence, text and whether it changed are added to the
// envelope the assertions judge.
package filewatch

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"unicode/utf8"

	"github.com/mcptest/mcptest/internal/safefile"
)

// Limit bounds a file a files["path"] target reads.
const Limit = 16 << 20

// Watch is the state of the files of one test: the fixture copy, and
// each file's digest when the test began (nil for a file that did not
// exist), so .unchanged compares against it.
type Watch struct {
	dir    string
	before map[string]*[32]byte
}

// New notes the files rels (relative to dir) as they are now.
func New(dir string, rels []string) (*Watch, error) {
	w := &Watch{dir: dir, before: map[string]*[32]byte{}}
	for _, rel := range rels {
		data, ok, err := w.read(rel)
		if err != nil {
			return nil, err
		}
		w.before[rel] = nil
		if ok {
			sum := sha256.Sum256(data)
			w.before[rel] = &sum
		}
	}
	return w, nil
}

// read reads rel inside the copy; ok is false when it does not exist.
func (w *Watch) read(rel string) (data []byte, ok bool, err error) {
	data, err = safefile.ReadFile(filepath.Join(w.dir, filepath.FromSlash(rel)), Limit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("files[%q]: %w", rel, err)
	}
	return data, true, nil
}

// state is the value of files["path"] in the envelope.
type state struct {
	Exists    bool   `json:"exists"`
	Text      string `json:"text"`
	Unchanged bool   `json:"unchanged"`
}

// Add returns envelope with a "files" member holding each watched file's
// state now: whether it exists, its text ("" when absent or not UTF-8)
// and whether it is as it was when the test began (absent then and now
// counts as unchanged).
func (w *Watch) Add(envelope json.RawMessage) (json.RawMessage, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(envelope, &doc); err != nil || doc == nil {
		doc = map[string]json.RawMessage{}
	}
	files := map[string]state{}
	for rel, before := range w.before {
		data, ok, err := w.read(rel)
		if err != nil {
			return nil, err
		}
		st := state{Exists: ok}
		if ok && utf8.Valid(data) {
			st.Text = string(data)
		}
		switch {
		case !ok:
			st.Unchanged = before == nil
		case before != nil:
			st.Unchanged = sha256.Sum256(data) == *before
		}
		files[rel] = st
	}
	raw, err := json.Marshal(files)
	if err != nil {
		return nil, fmt.Errorf("files targets: %w", err)
	}
	doc["files"] = raw
	return json.Marshal(doc)
}
