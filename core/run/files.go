package run

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"unicode/utf8"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/safefile"
)

// fileLimit bounds a file a files["path"] target reads.
const fileLimit = 16 << 20

// ErrNoFixtureCopy is returned when a test with files["path"] targets
// has no fixture copy to look in.
var ErrNoFixtureCopy = errors.New("no fixture copy")

// fileWatch is what the files["path"] targets of one test need: the
// fixture copy, and each file's digest when the test began (nil for a
// file that did not exist), so .unchanged compares against it.
type fileWatch struct {
	dir    string
	before map[string]*[32]byte
}

// watchFiles notes the files of t before its call. The session is the one
// the call will use (Get returns it again), so the copy is the server's.
func (r *runner) watchFiles(ctx context.Context, t *plan.Test) (*fileWatch, error) {
	sess, err := r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", t.Server.Name, err)
	}
	dir := r.servers.FixtureOf(sess)
	if dir == "" {
		return nil, fmt.Errorf("files targets: %w for server %s", ErrNoFixtureCopy, t.Server.Name)
	}
	w := &fileWatch{dir: dir, before: map[string]*[32]byte{}}
	for _, rel := range t.Files {
		data, ok, err := w.read(rel)
		if err != nil {
			return nil, err
		}
		if ok {
			sum := sha256.Sum256(data)
			w.before[rel] = &sum
		} else {
			w.before[rel] = nil
		}
	}
	return w, nil
}

// read reads rel inside the copy; ok is false when it does not exist.
func (w *fileWatch) read(rel string) (data []byte, ok bool, err error) {
	data, err = safefile.ReadFile(filepath.Join(w.dir, filepath.FromSlash(rel)), fileLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("files[%q]: %w", rel, err)
	}
	return data, true, nil
}

// fileState is the value of files["path"] in the envelope.
type fileState struct {
	Exists    bool   `json:"exists"`
	Text      string `json:"text"`
	Unchanged bool   `json:"unchanged"`
}

// add returns envelope with a "files" member holding each watched file's
// state now: whether it exists, its text ("" when absent or not UTF-8)
// and whether it is as it was when the test began (absent then and now
// counts as unchanged).
func (w *fileWatch) add(envelope json.RawMessage) (json.RawMessage, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(envelope, &doc); err != nil || doc == nil {
		doc = map[string]json.RawMessage{}
	}
	files := map[string]fileState{}
	for rel, before := range w.before {
		data, ok, err := w.read(rel)
		if err != nil {
			return nil, err
		}
		st := fileState{Exists: ok}
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
