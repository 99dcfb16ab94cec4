package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"sync"

	"github.com/mcptest/mcptest/internal/safefile"
	"github.com/mcptest/mcptest/schemas"
)

// manifestCache remembers manifests that parsed and validated, by the
// sha256 of their bytes and of the manifest schema they were checked
// against. Parsing YAML and validating it against the schema is most of
// plugin discovery, which every run does for every installed plugin
// before it can start anything; with the cache, a manifest unchanged
// since an earlier run costs a hash of a few hundred bytes. Like the
// digest cache it lives in the user cache folder, is ignored unless it is
// this user's alone, and only saves work: a miss parses again.
type manifestCache struct {
	path string // "" disables the cache

	once    sync.Once
	mu      sync.Mutex
	entries map[string]json.RawMessage
	// used holds the entries looked up or added by this process; dirty
	// says whether one was added.
	used  map[string]json.RawMessage
	dirty bool
}

// sharedManifests is the process's manifest cache, beside the digest cache.
var sharedManifests = newManifestCache(manifestCachePath(defaultDigestCachePath()))

func newManifestCache(path string) *manifestCache { return &manifestCache{path: path} }

// manifestCachePath places the manifest cache beside the digest cache
// (which MCPTEST_DIGEST_CACHE moves or turns off).
func manifestCachePath(digests string) string {
	if digests == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(digests), "plugin-manifests.json")
}

// schemaSum identifies the rules a cached manifest was checked against: a
// new schema invalidates every entry.
var schemaSum = sync.OnceValue(func() [sha256.Size]byte { return sha256.Sum256(schemas.PluginManifestV1) })

// manifestKey is the cache key of raw manifest bytes.
func manifestKey(raw []byte) string {
	h := sha256.New()
	s := schemaSum()
	h.Write(s[:])
	h.Write(raw)
	return hex.EncodeToString(h.Sum(nil))
}

// parse returns the manifest raw holds: from the cache when these bytes
// were validated before, else through ParseManifest (a valid result is
// remembered).
func (c *manifestCache) parse(raw []byte) (*Manifest, error) {
	if c.path == "" {
		return ParseManifest(raw)
	}
	c.once.Do(c.load)
	key := manifestKey(raw)
	c.mu.Lock()
	enc, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		var m Manifest
		if json.Unmarshal(enc, &m) == nil {
			c.note(key, enc, false)
			return &m, nil
		}
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, err
	}
	if enc, err := json.Marshal(m); err == nil {
		c.note(key, enc, true)
	}
	return m, nil
}

// note records that key was used, and added when added is set.
func (c *manifestCache) note(key string, enc json.RawMessage, added bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.used == nil {
		c.used = map[string]json.RawMessage{}
	}
	c.used[key] = enc
	if added {
		c.entries[key] = enc
		c.dirty = true
	}
}

// load reads the cache file once; a file that is not this user's alone
// is ignored (whoever could write it could vouch for any manifest).
func (c *manifestCache) load() {
	c.entries = map[string]json.RawMessage{}
	if raw := readPrivateCache(c.path, maxManifestCacheSize); raw != nil {
		if json.Unmarshal(raw, &c.entries) != nil {
			// Half-decoded entries of a damaged file are not kept.
			c.entries = map[string]json.RawMessage{}
		}
	}
}

// maxManifestCacheSize bounds the cache file read; it holds one entry per
// installed plugin, a few hundred bytes each.
const maxManifestCacheSize = 4 << 20

// save writes the entries this process used, when it added one: the file
// stays as small as the set of plugins in use. Failing to save is not an
// error.
func (c *manifestCache) save() {
	if c.path == "" {
		return
	}
	c.mu.Lock()
	if !c.dirty {
		c.mu.Unlock()
		return
	}
	b, err := json.Marshal(c.used)
	c.dirty = false
	c.mu.Unlock()
	if err != nil {
		return
	}
	_ = safefile.WriteAtomic(c.path, b, 0o700)
}
