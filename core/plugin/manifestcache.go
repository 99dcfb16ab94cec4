package plugin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
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

	once sync.Once
	mu   sync.Mutex
	// raw is the file as read, searched one manifest at a time until it
	// must be decoded whole (decoded): an entry in another layout than
	// save writes.
	raw     []byte
	decoded bool
	// index maps the keys of raw to where their manifests start, built
	// in one pass on the first lookup.
	index   map[string]int
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
	if m, enc, ok := c.lookup(key); ok {
		c.note(key, enc, false)
		return m, nil
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

// lookup returns the manifest remembered under key and its encoding: read
// by a scan of its entry in the file when save wrote it, else decoded by
// encoding/json.
func (c *manifestCache) lookup(key string) (*Manifest, json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok && !c.decoded {
		if c.index == nil {
			c.index = indexManifests(c.raw)
		}
		i, found := c.index[key]
		if found {
			if m, n, ok := scanManifest(c.raw[i:]); ok {
				enc := json.RawMessage(bytes.Clone(c.raw[i : i+n]))
				c.entries[key] = enc
				return m, enc, true
			}
		}
		if !found && (len(c.index) > 0 || len(bytes.TrimSpace(c.raw)) <= 2) {
			// A file in save's layout that does not hold the key.
			return nil, nil, false
		}
		// Not in save's layout: the file is decoded once.
		c.decodeLocked()
	}
	enc, ok := c.entries[key]
	if !ok {
		return nil, nil, false
	}
	if m, n, ok := scanManifest(enc); ok && n == len(enc) {
		return m, enc, true
	}
	var m Manifest
	if json.Unmarshal(enc, &m) != nil {
		return nil, nil, false
	}
	return &m, enc, true
}

// manifestStart is how json.Marshal begins a cached manifest; with the
// key before it, it marks an entry of the file.
const manifestStart = `":{"manifest_version":`

// indexManifests maps each key of raw, a cache file as save writes it, to
// where its manifest starts, in one pass: a run looks up every installed
// plugin's manifest, and a search of the file per plugin would read it
// that many times. An entry is a quoted key of 64 lower-case hex digits,
// after the object's brace or a comma, followed by manifestStart; a quote
// inside a string is escaped, so nothing inside a value looks like one.
// A file in another layout gives an empty index.
func indexManifests(raw []byte) map[string]int {
	idx := map[string]int{}
	const keyLen = 2 * sha256.Size
	for from := 0; ; {
		i := bytes.Index(raw[from:], []byte(manifestStart))
		if i < 0 {
			return idx
		}
		i += from
		from = i + len(manifestStart)
		start := i - keyLen - 1
		if start < 1 || raw[start] != '"' || (raw[start-1] != '{' && raw[start-1] != ',') {
			continue
		}
		key := raw[start+1 : i]
		if !isLowerHex(string(key)) {
			continue
		}
		if _, dup := idx[string(key)]; !dup {
			idx[string(key)] = i + 2
		}
	}
}

// load reads the cache file once; a file that is not this user's alone
// is ignored (whoever could write it could vouch for any manifest), and
// so is one that is not a whole JSON object.
func (c *manifestCache) load() {
	c.entries = map[string]json.RawMessage{}
	raw := readPrivateCache(c.path, maxManifestCacheSize)
	if t := bytes.TrimSpace(raw); len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' {
		c.raw = raw
	}
}

// decodeLocked decodes the whole file into entries, once; c.mu is held.
func (c *manifestCache) decodeLocked() {
	if c.decoded {
		return
	}
	c.decoded = true
	raw := c.raw
	c.raw = nil
	var all map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &all) != nil {
		// Half-decoded entries of a damaged file are not kept.
		return
	}
	for k, v := range all {
		if _, have := c.entries[k]; !have {
			c.entries[k] = v
		}
	}
}

// maxManifestCacheSize bounds the cache file read; it holds one entry per
// installed plugin, a few hundred bytes each.
const maxManifestCacheSize = 4 << 20

// maxManifestEntries bounds the manifests the cache file keeps: a few
// hundred bytes each, so the file stays small enough to index at every
// run's start.
const maxManifestEntries = 256

// save merges the entries this process used into the file as it is now,
// when it added one. Entries other runs keep there stay: writing only
// this run's would make two sets of plugins in use on one machine (two
// projects, two builds) evict each other at every run, and each would
// parse and validate every manifest again. Past maxManifestEntries, the
// entries this process did not use go first, in key order. Failing to
// save is not an error.
func (c *manifestCache) save() {
	if c.path == "" {
		return
	}
	c.mu.Lock()
	if !c.dirty {
		c.mu.Unlock()
		return
	}
	used := maps.Clone(c.used)
	c.dirty = false
	c.mu.Unlock()
	all := map[string]json.RawMessage{}
	if raw := readPrivateCache(c.path, maxManifestCacheSize); raw != nil {
		if json.Unmarshal(raw, &all) != nil {
			all = map[string]json.RawMessage{}
		}
	}
	var others []string
	for k := range all {
		if _, ok := used[k]; !ok {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	if keep := max(0, maxManifestEntries-len(used)); len(others) > keep {
		others = others[:keep]
	}
	out := used
	for _, k := range others {
		out[k] = all[k]
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	_ = safefile.WriteAtomic(c.path, b, 0o700)
}
