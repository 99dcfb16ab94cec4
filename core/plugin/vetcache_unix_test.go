//go:build unix

package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The cache file is only trusted when it is this user's alone, and a
// damaged, oversized or special file is ignored without blocking or
// failing: every such case means asking the plugin again.
func TestVetCacheIgnoresHostileFiles(t *testing.T) {
	if !stampSupported {
		t.Skip("no ownership checks on this platform")
	}
	key := vetKey("id", "matcher", "exact", []byte(`"bad"`))
	forged, _ := json.Marshal(map[string]vetVerdict{key: {Day: today()}})
	for _, tc := range []struct {
		name  string
		write func(path string) error
	}{
		{"writable by others", func(p string) error {
			if err := os.WriteFile(p, forged, 0o600); err != nil {
				return err
			}
			return os.Chmod(p, 0o666)
		}},
		{"garbage", func(p string) error { return os.WriteFile(p, []byte("\x00{not json"), 0o600) }},
		{"wrong shape", func(p string) error { return os.WriteFile(p, []byte(`{"`+key+`": "ok"}`), 0o600) }},
		{"oversized", func(p string) error {
			big := append([]byte(`{"`+key+`": {"d": 1}, "pad": "`), make([]byte, maxVetCacheSize)...)
			return os.WriteFile(p, big, 0o600)
		}},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o700) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plugin-vetting.json")
			if err := tc.write(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan bool, 1)
			go func() {
				_, ok := newVetCache(path).lookup(key)
				done <- ok
			}()
			select {
			case ok := <-done:
				if ok {
					t.Error("a verdict was taken from the file")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("reading the cache file blocked")
			}
		})
	}
}

// The digest and manifest caches read their files the same careful way: a
// FIFO at the path (MCPTEST_DIGEST_CACHE may name anything) must not
// block the run.
func TestCachesDoNotBlockOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	exe := filepath.Join(dir, "exe")
	if err := os.WriteFile(exe, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		newDigestCache(fifo).verified(exe, strings.Repeat("0", 64))
		_, _ = newManifestCache(fifo).parse([]byte("manifest_version: 1\n"))
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a cache read blocked on a FIFO")
	}
}
