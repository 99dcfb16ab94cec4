package verdictcache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

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

func TestBeginMakesConcurrentCallersWait(t *testing.T) {
	c := New("")
	k := Key{Model: "m", Prompt: "p"}
	_, hit, done, err := c.Begin(context.Background(), k)
	if hit || err != nil {
		t.Fatalf("first Begin: hit %v, %v", hit, err)
	}
	got := make(chan judgereply.Reply)
	go func() {
		r, hit, _, err := c.Begin(context.Background(), k)
		if !hit || err != nil {
			t.Errorf("waiter: hit %v, %v", hit, err)
		}
		got <- r
	}()
	// Answer only once the second caller is blocked waiting, so the test
	// shows it waited rather than arriving after the answer.
	for deadline := time.Now().Add(10 * time.Second); ; runtime.Gosched() {
		c.mu.Lock()
		w := c.waiting
		c.mu.Unlock()
		if w == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second caller never waited")
		}
	}
	done(&judgereply.Reply{Score: 0.4, Reason: "r"})
	if r := <-got; r.Score != 0.4 {
		t.Fatalf("waiter got %+v", r)
	}
}

func TestBeginAfterFailureAsksAgain(t *testing.T) {
	c := New("")
	k := Key{Model: "m", Prompt: "p"}
	_, _, done, _ := c.Begin(context.Background(), k)
	done(nil)
	_, hit, done2, err := c.Begin(context.Background(), k)
	if hit || err != nil || done2 == nil {
		t.Fatalf("after a failure: hit %v, %v", hit, err)
	}
	done2(nil)
}

func TestBeginWaitIsBoundedByContext(t *testing.T) {
	c := New("")
	k := Key{Model: "m", Prompt: "p"}
	_, _, done, _ := c.Begin(context.Background(), k)
	defer done(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := c.Begin(ctx, k); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// TestBeginSeesAVerdictStoredAfterItsLookup: an asker that finishes
// between a second caller's lookup and its lock must not leave the second
// caller to ask again.
func TestBeginSeesAVerdictStoredAfterItsLookup(t *testing.T) {
	c := New("")
	k := Key{Model: "m", Prompt: "p"}
	_, _, doneA, _ := c.Begin(context.Background(), k)
	c.afterGet = func() {
		c.afterGet = nil
		doneA(&judgereply.Reply{Score: 0.3, Reason: "r"})
	}
	r, hit, done, err := c.Begin(context.Background(), k)
	if err != nil || !hit || r.Score != 0.3 {
		if done != nil {
			done(nil)
		}
		t.Fatalf("second caller: hit %v, %+v, %v; it would ask the model again", hit, r, err)
	}
}
