// Package verdictcache answers repeated judge (and scorer) requests from
// earlier answers, within a run and, with a cache folder, across runs.
//
// Two requests are the same when their Key matches: the judge model, the
// rendered prompt (system and user text, which embed the candidate), the
// juror index, the trial index and the scorer name. The juror index is in
// the key on purpose: a jury of three asks three times, and each juror's
// answer is remembered separately, so a cached jury still reports three
// independent gradings.
//
// On disk a verdict is one small JSON file, DIR/verdicts/<2 hex>/<key>.json
// (DIR is the run's --cache-dir, shared with the result cache, which never
// uses a "verdicts" folder). Files are written atomically, read through a
// size bound, and hold only the parsed verdict after secrets were masked;
// prompts and candidates are never stored. The one exception to "parsed
// verdicts only" is a plugin's model call through the host (KindHost,
// BeginResponse): the host cannot parse a plugin's reply, so it keeps the
// masked response; its key holds a digest of the request, never the
// request. A damaged file is a miss.
package verdictcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/internal/safefile"
)

// Namespace is the folder of the verdict cache inside a cache folder.
const Namespace = "verdicts"

// format versions the files; other versions are ignored.
const format = 1

// maxEntry bounds the read of one file: a verdict is a score and two
// short strings.
const maxEntry = 1 << 20

// Key identifies one judge request.
type Key struct {
	// Model is the judge model id.
	Model string `json:"model"`
	// System and Prompt are the rendered system and user text.
	System string `json:"system"`
	Prompt string `json:"prompt"`
	// Juror is the juror (or panel seat) index, 0 for a single judge.
	Juror int `json:"juror"`
	// Trial is the trial index of the graded candidate.
	Trial int `json:"trial"`
	// Scorer names the scorers: entry that graded; "" for the judge.
	Scorer string `json:"scorer,omitempty"`
	// Kind is "" for a verdict and KindHost for a plugin's model call
	// through the host (a whole response, see BeginResponse), so the two
	// never answer each other.
	Kind string `json:"kind,omitempty"`
}

// KindHost is the Key.Kind of a model call a plugin made through the
// host's Host service.
const KindHost = "host"

// Hash is the key's file name: a sha256 of its canonical JSON.
func (k Key) Hash() string {
	raw, _ := json.Marshal(struct {
		Format int `json:"format"`
		Key
	}{format, k})
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// Cache holds verdicts in memory and, when it has a folder, on disk. A
// nil *Cache caches nothing. It is safe for concurrent use.
type Cache struct {
	dir string

	mu  sync.Mutex
	mem map[string]entry
	// inflight holds a channel per key being asked right now; it is
	// closed when the asker is done, so concurrent identical requests
	// wait for the first instead of all calling the model.
	inflight map[string]chan struct{}
	// waiting counts callers blocked in Begin, and afterGet runs between
	// Begin's lookup and its lock (both for tests).
	waiting  int
	afterGet func()
}

// New returns a cache; cacheDir is the run's --cache-dir ("" keeps
// verdicts for this run only). Verdicts go to cacheDir/verdicts.
func New(cacheDir string) *Cache {
	c := &Cache{mem: map[string]entry{}, inflight: map[string]chan struct{}{}}
	if cacheDir != "" {
		c.dir = filepath.Join(cacheDir, Namespace)
	}
	return c
}

// entry is one file's content.
type entry struct {
	Format int    `json:"format"`
	Model  string `json:"model"`
	Scorer string `json:"scorer,omitempty"`
	Kind   string `json:"kind,omitempty"`
	// Reply is the masked verdict.
	Reply judgereply.Reply `json:"reply"`
	// Response is the masked response of a KindHost call.
	Response json.RawMessage `json:"response,omitempty"`
}

// valid reports whether e can answer k: a verdict's score in range, a
// host call's response present.
func (e entry) valid(k Key) bool {
	if e.Format != format || e.Model != k.Model || e.Kind != k.Kind {
		return false
	}
	if k.Kind == KindHost {
		return len(e.Response) > 0 && json.Valid(e.Response)
	}
	return e.Reply.Score >= 0 && e.Reply.Score <= 1
}

// Get returns the verdict stored for k.
func (c *Cache) Get(k Key) (judgereply.Reply, bool) {
	e, ok := c.get(k)
	return e.Reply, ok
}

// get returns the entry stored for k, from memory or the folder.
func (c *Cache) get(k Key) (entry, bool) {
	if c == nil {
		return entry{}, false
	}
	h := k.Hash()
	c.mu.Lock()
	e, ok := c.mem[h]
	c.mu.Unlock()
	if ok || c.dir == "" {
		return e, ok
	}
	raw, err := safefile.ReadFile(c.path(h), maxEntry)
	if err != nil {
		return entry{}, false
	}
	e = entry{}
	if json.Unmarshal(raw, &e) != nil || !e.valid(k) {
		return entry{}, false
	}
	c.mu.Lock()
	c.mem[h] = e
	c.mu.Unlock()
	return e, true
}

// Begin looks k up for a caller about to ask a judge. On a hit it
// returns the verdict. On a miss the caller asks, and must call done
// with the verdict (masked), or with nil when it got none; meanwhile
// other callers of Begin with the same key wait for it (or for ctx) and
// then find the verdict, or ask themselves if there was none.
func (c *Cache) Begin(ctx context.Context, k Key) (r judgereply.Reply, hit bool, done func(*judgereply.Reply), err error) {
	if c == nil {
		return judgereply.Reply{}, false, func(*judgereply.Reply) {}, nil
	}
	e, hit, finish, err := c.begin(ctx, k)
	if hit || err != nil {
		return e.Reply, hit, nil, err
	}
	return judgereply.Reply{}, false, func(r *judgereply.Reply) {
		if r == nil {
			finish(nil)
			return
		}
		finish(&entry{Format: format, Model: k.Model, Scorer: k.Scorer, Reply: *r})
	}, nil
}

// BeginResponse is Begin for a KindHost key: the cached value is a
// whole model response (JSON, masked by the caller), stored with the
// same bounds and atomic files as a verdict.
func (c *Cache) BeginResponse(ctx context.Context, k Key) (resp json.RawMessage, hit bool, done func(json.RawMessage), err error) {
	if c == nil {
		return nil, false, func(json.RawMessage) {}, nil
	}
	k.Kind = KindHost
	e, hit, finish, err := c.begin(ctx, k)
	if hit || err != nil {
		return e.Response, hit, nil, err
	}
	return nil, false, func(raw json.RawMessage) {
		if len(raw) == 0 || len(raw) > maxEntry/2 {
			// Nothing to keep, or too big to read back within the bound.
			finish(nil)
			return
		}
		finish(&entry{Format: format, Model: k.Model, Kind: KindHost, Response: raw})
	}, nil
}

// begin is Begin on entries.
func (c *Cache) begin(ctx context.Context, k Key) (e entry, hit bool, done func(*entry), err error) {
	h := k.Hash()
	for {
		if e, ok := c.get(k); ok {
			return e, true, nil, nil
		}
		if c.afterGet != nil {
			c.afterGet()
		}
		c.mu.Lock()
		// Look again under the lock: an asker stores its verdict before it
		// leaves the in-flight set, so a verdict stored since the get above
		// is seen here rather than asked for twice.
		if e, ok := c.mem[h]; ok {
			c.mu.Unlock()
			return e, true, nil, nil
		}
		ch, busy := c.inflight[h]
		if !busy {
			ch = make(chan struct{})
			c.inflight[h] = ch
			c.mu.Unlock()
			return entry{}, false, func(e *entry) {
				if e != nil {
					// A folder that cannot be written costs only the
					// reuse across runs.
					_ = c.put(h, *e)
				}
				c.mu.Lock()
				delete(c.inflight, h)
				c.mu.Unlock()
				close(ch)
			}, nil
		}
		c.waiting++
		c.mu.Unlock()
		var cerr error
		select {
		case <-ch:
		case <-ctx.Done():
			cerr = ctx.Err()
		}
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
		if cerr != nil {
			return entry{}, false, nil, cerr
		}
	}
}

// Put stores r, which the caller has already masked, for k. A failure to
// write the folder is returned but leaves the in-memory entry in place.
func (c *Cache) Put(k Key, r judgereply.Reply) error {
	if c == nil {
		return nil
	}
	return c.put(k.Hash(), entry{Format: format, Model: k.Model, Scorer: k.Scorer, Kind: k.Kind, Reply: r})
}

// put stores e under the hash h, in memory and in the folder.
func (c *Cache) put(h string, e entry) error {
	c.mu.Lock()
	c.mem[h] = e
	c.mu.Unlock()
	if c.dir == "" {
		return nil
	}
	raw, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode verdict: %w", err)
	}
	return writeAtomic(c.path(h), raw)
}

func (c *Cache) path(h string) string { return filepath.Join(c.dir, h[:2], h+".json") }

// writeAtomic writes raw to path through a temporary file and a rename,
// so a concurrent run reads the old file or the new one, never half.
func writeAtomic(path string, raw []byte) error {
	if err := safefile.WriteAtomic(path, raw, 0o755); err != nil {
		return fmt.Errorf("write verdict: %w", err)
	}
	return nil
}
