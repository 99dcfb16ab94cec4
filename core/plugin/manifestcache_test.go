package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const cacheTestManifest = `manifest_version: 1
name: shout
version: 1.0.0
protocol_versions: [1]
executable: mcptest-plugin-shout
sha256: 9b119dc0ad15bfda9b8409af7dbd4f3ad774adfc32ace0eae9ba1a610df15b8c
components:
  - kind: matcher
    keys: [shouted]
`

// The manifest cache gives what ParseManifest gives, saves it, and a new
// process (a new cache on the same file) takes it from the file: a
// planted entry for the same bytes is what comes back, which shows the
// parse was skipped. A cache file others may write is ignored.
func TestManifestCacheServesValidatedManifests(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file ownership checks are unix-only")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "plugin-manifests.json")
	raw := []byte(cacheTestManifest)
	want, err := ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	c := newManifestCache(path)
	got, err := c.parse(raw)
	if err != nil || got.Name != want.Name || got.Version != want.Version || len(got.Components) != 1 {
		t.Fatalf("parse = %+v, %v; want %+v", got, err, want)
	}
	c.save()
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the cache file: %v, %v", info, err)
	}

	// Plant another version under the same key: a hit returns it.
	planted := *want
	planted.Version = "9.9.9"
	enc, _ := json.Marshal(&planted)
	b, _ := json.Marshal(map[string]json.RawMessage{manifestKey(raw): enc})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := newManifestCache(path).parse(raw); err != nil || got.Version != "9.9.9" {
		t.Fatalf("a new process parsed again (%+v, %v) instead of reading the cache", got, err)
	}

	// Group-writable: not trusted, so the bytes are parsed again.
	if err := os.Chmod(path, 0o620); err != nil {
		t.Fatal(err)
	}
	if got, err := newManifestCache(path).parse(raw); err != nil || got.Version != "1.0.0" {
		t.Fatalf("a cache file others may write was used: %+v, %v", got, err)
	}
}

// Invalid manifests are never cached: each run reports them again.
func TestManifestCacheKeepsNoInvalidManifest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugin-manifests.json")
	c := newManifestCache(path)
	bad := []byte(strings.Replace(cacheTestManifest, "protocol_versions: [1]", "protocol_versions: one", 1))
	if _, err := c.parse(bad); err == nil {
		t.Fatal("an invalid manifest parsed")
	}
	c.save()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a cache file was written for an invalid manifest: %v", err)
	}
	if _, err := newManifestCache(path).parse(bad); err == nil {
		t.Fatal("the invalid manifest parsed on the second try")
	}
}
