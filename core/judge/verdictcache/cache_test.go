package verdictcache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/judgereply"
)

func TestAcrossInstancesSharingAFolder(t *testing.T) {
	dir := t.TempDir()
	k := Key{Model: "claude-sonnet-4-5", System: "s", Prompt: "p", Juror: 1, Trial: 2}
	want := judgereply.Reply{Score: 0.75, Reason: "fine", Evidence: "span"}
	if err := New(dir).Put(k, want); err != nil {
		t.Fatal(err)
	}
	got, ok := New(dir).Get(k)
	if !ok || got != want {
		t.Fatalf("second cache: got %+v, %v; want %+v", got, ok, want)
	}
	// The file sits in its own namespace and holds neither prompt nor
	// candidate.
	files, _ := filepath.Glob(filepath.Join(dir, Namespace, "*", "*.json"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	raw, _ := os.ReadFile(files[0])
	if strings.Contains(string(raw), `"p"`) || strings.Contains(string(raw), "prompt") {
		t.Fatalf("file stores the prompt: %s", raw)
	}
}

func TestKeyParts(t *testing.T) {
	base := Key{Model: "m", System: "s", Prompt: "p"}
	c := New("")
	_ = c.Put(base, judgereply.Reply{Score: 1, Reason: "r"})
	for name, k := range map[string]Key{
		"juror":  {Model: "m", System: "s", Prompt: "p", Juror: 1},
		"trial":  {Model: "m", System: "s", Prompt: "p", Trial: 1},
		"model":  {Model: "m2", System: "s", Prompt: "p"},
		"prompt": {Model: "m", System: "s", Prompt: "p2"},
		"system": {Model: "m", System: "s2", Prompt: "p"},
		"scorer": {Model: "m", System: "s", Prompt: "p", Scorer: "x"},
	} {
		if _, ok := c.Get(k); ok {
			t.Errorf("a key differing in %s hit the cache", name)
		}
	}
	if _, ok := c.Get(base); !ok {
		t.Fatal("identical key missed")
	}
}

func TestDamagedFileIsAMiss(t *testing.T) {
	dir := t.TempDir()
	k := Key{Model: "m", Prompt: "p"}
	_ = New(dir).Put(k, judgereply.Reply{Score: 1, Reason: "r"})
	files, _ := filepath.Glob(filepath.Join(dir, Namespace, "*", "*.json"))
	for _, body := range []string{"{", `{"format":1,"model":"m","reply":{"score":7,"reason":""}}`, `{"format":99,"model":"m","reply":{"score":1,"reason":""}}`} {
		if err := os.WriteFile(files[0], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := New(dir).Get(k); ok {
			t.Errorf("damaged file %q answered", body)
		}
	}
}

func TestNilCache(t *testing.T) {
	var c *Cache
	if err := c.Put(Key{}, judgereply.Reply{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(Key{}); ok {
		t.Fatal("nil cache answered")
	}
}
