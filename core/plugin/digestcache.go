package plugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcptest/mcptest/internal/safefile"
)

// digestCacheEnv names the environment variable that moves (or, set to
// "off", disables) the cache of verified plugin digests.
const digestCacheEnv = "MCPTEST_DIGEST_CACHE"

// fileStamp is what the kernel says about an executable: any write to the
// file, a replacement or a metadata change alters at least one field (the
// change time cannot be set from user space), so an unchanged stamp means
// unchanged contents.
type fileStamp struct {
	Dev, Ino         uint64
	Size             int64
	MtimeNS, CtimeNS int64
	UID              uint32
}

// digestEntry is one verified executable.
type digestEntry struct {
	Stamp  fileStamp `json:"stamp"`
	SHA256 string    `json:"sha256"`
}

// digestCache remembers the sha256 of plugin executables by path and
// stamp. Hashing the bundled plugins is most of a small run's start-up
// (each binary is over 10 MB); with the cache a plugin is hashed once per
// build, and every later run checks its stamp instead. It only saves work:
// a missing, unreadable or foreign cache file means hashing again.
type digestCache struct {
	path string // "" disables the cache

	once sync.Once
	mu   sync.Mutex
	// raw is the file as read, searched one executable at a time until
	// entries is needed whole (decoded): a run checks a plugin or two of
	// the file's many entries, and decoding them all through reflection
	// cost each run's start half a millisecond.
	raw     []byte
	decoded bool
	entries map[string]digestEntry
}

// sharedDigests is the process's cache, at its default place.
var sharedDigests = newDigestCache(defaultDigestCachePath())

func newDigestCache(path string) *digestCache { return &digestCache{path: path} }

// defaultDigestCachePath is $MCPTEST_DIGEST_CACHE, or
// <user cache dir>/mcptest/plugin-digests.json; "" when disabled or when
// the platform gives no stamp.
func defaultDigestCachePath() string {
	if !stampSupported {
		return ""
	}
	switch v := os.Getenv(digestCacheEnv); v {
	case "off":
		return ""
	case "":
	default:
		return v
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcptest", "plugin-digests.json")
}

// load reads the cache file once. A file that is not ours or that others
// may write is ignored: whoever could edit it could vouch for any binary.
// So is one that is not a whole JSON object (cut short).
func (c *digestCache) load() {
	c.entries = map[string]digestEntry{}
	raw := readPrivateCache(c.path, maxDigestCacheSize)
	if t := bytes.TrimSpace(raw); len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' {
		c.raw = raw
	}
}

// decodeLocked decodes the whole file into entries, once; c.mu is held.
func (c *digestCache) decodeLocked() {
	if c.decoded {
		return
	}
	c.decoded = true
	raw := c.raw
	c.raw = nil
	if raw == nil {
		return
	}
	var all map[string]digestEntry
	if json.Unmarshal(raw, &all) != nil {
		// Half-decoded entries of a damaged file are not kept.
		return
	}
	for k, e := range all {
		if _, have := c.entries[k]; !have {
			c.entries[k] = e
		}
	}
}

// entryLocked returns the entry of path: found by a search of the file's
// bytes when that settles it, else from the decoded file; c.mu is held.
func (c *digestCache) entryLocked(path string) (digestEntry, bool) {
	if e, ok := c.entries[path]; ok || c.decoded {
		return e, ok
	}
	if e, found, sure := findDigest(c.raw, path); sure {
		if found {
			c.entries[path] = e
		}
		return e, found
	}
	c.decodeLocked()
	e, ok := c.entries[path]
	return e, ok
}

// maxDigestCacheSize bounds the digest cache read; it holds one entry per
// installed plugin, about 200 bytes each.
const maxDigestCacheSize = 4 << 20

// verified reports whether the executable at path, as it is now, was
// hashed to want before.
func (c *digestCache) verified(path, want string) bool {
	if c.path == "" {
		return false
	}
	c.once.Do(c.load)
	st, ok := stampOf(path)
	if !ok {
		return false
	}
	c.mu.Lock()
	e, found := c.entryLocked(path)
	c.mu.Unlock()
	return found && e.Stamp == st && e.SHA256 == want
}

// remember records that path hashed to sum, when its stamp is the same
// before and after the hash (stampBefore), and saves the cache.
func (c *digestCache) remember(path, sum string, stampBefore fileStamp) {
	if c.path == "" {
		return
	}
	c.once.Do(c.load)
	st, ok := stampOf(path)
	if !ok || st != stampBefore {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// The file is rewritten whole, so every entry it holds is needed.
	c.decodeLocked()
	c.entries[path] = digestEntry{Stamp: st, SHA256: sum}
	c.saveLocked()
}

// saveLocked writes the cache atomically, readable by its owner only.
// Failing to save is not an error: the next run hashes again.
func (c *digestCache) saveLocked() {
	// Executables that are gone (temporary builds, uninstalled plugins)
	// leave the cache, so it stays as small as the set of plugins.
	for p := range c.entries {
		if _, ok := stampOf(p); !ok {
			delete(c.entries, p)
		}
	}
	b, err := json.Marshal(c.entries)
	if err != nil {
		return
	}
	_ = safefile.WriteAtomic(c.path, b, 0o700)
}
