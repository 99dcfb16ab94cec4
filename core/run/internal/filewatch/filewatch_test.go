package filewatch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A file written after New is changed, one left alone unchanged, one
// absent before and after unchanged and not existing; the envelope's
// other members are kept.
func TestAdd(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("keep.txt", "same")
	write("edit.txt", "old")
	w, err := New(dir, []string{"keep.txt", "edit.txt", "none.txt", "new.txt"})
	if err != nil {
		t.Fatal(err)
	}
	write("edit.txt", "new")
	write("new.txt", "hi")
	out, err := w.Add(json.RawMessage(`{"result":{"isError":false}}`))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Result json.RawMessage  `json:"result"`
		Files  map[string]state `json:"files"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]state{
		"keep.txt": {Exists: true, Text: "same", Unchanged: true},
		"edit.txt": {Exists: true, Text: "new"},
		"none.txt": {Unchanged: true},
		"new.txt":  {Exists: true, Text: "hi"},
	}
	for k, v := range want {
		if doc.Files[k] != v {
			t.Errorf("%s = %+v, want %+v", k, doc.Files[k], v)
		}
	}
	if string(doc.Result) != `{"isError":false}` {
		t.Errorf("result = %s", doc.Result)
	}
}
