package plugin

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestDigestCacheRemembersUnchangedFilesOnly(t *testing.T) {
	if !stampSupported {
		t.Skip("no file stamps on " + runtime.GOOS)
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "plugin")
	if err := os.WriteFile(exe, []byte("version one"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum, err := FileSHA256(exe)
	if err != nil {
		t.Fatal(err)
	}
	cachePath := filepath.Join(dir, "cache", "digests.json")
	c := newDigestCache(cachePath)
	if c.verified(exe, sum) {
		t.Fatal("an empty cache vouched for a file")
	}
	st, _ := stampOf(exe)
	c.remember(exe, sum, st)
	if !c.verified(exe, sum) {
		t.Fatal("a remembered, unchanged file is not verified")
	}
	if c.verified(exe, "0"+sum[1:]) {
		t.Fatal("the cache vouched for another digest")
	}
	// A new process reads the saved file.
	if !newDigestCache(cachePath).verified(exe, sum) {
		t.Fatal("the saved cache does not verify the file")
	}
	info, err := os.Stat(cachePath)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode = %v, %v; want 0600", info.Mode(), err)
	}

	// Any write changes the stamp, even one that keeps size and contents'
	// length.
	if err := os.WriteFile(exe, []byte("version two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if newDigestCache(cachePath).verified(exe, sum) {
		t.Fatal("a rewritten file was vouched for by its old digest")
	}
}

func TestDigestCacheIgnoresAWritableCacheFile(t *testing.T) {
	if !stampSupported {
		t.Skip("no file stamps on " + runtime.GOOS)
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "plugin")
	if err := os.WriteFile(exe, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum, _ := FileSHA256(exe)
	cachePath := filepath.Join(dir, "digests.json")
	st, _ := stampOf(exe)
	newDigestCache(cachePath).remember(exe, sum, st)
	if err := os.Chmod(cachePath, 0o666); err != nil {
		t.Fatal(err)
	}
	if newDigestCache(cachePath).verified(exe, sum) {
		t.Fatal("a world-writable cache file was trusted")
	}
}

func TestDigestCacheDropsVanishedFiles(t *testing.T) {
	if !stampSupported {
		t.Skip("no file stamps on " + runtime.GOOS)
	}
	dir := t.TempDir()
	cachePath := filepath.Join(dir, "digests.json")
	c := newDigestCache(cachePath)
	for _, name := range []string{"a", "b"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o755); err != nil {
			t.Fatal(err)
		}
		sum, _ := FileSHA256(p)
		st, _ := stampOf(p)
		c.remember(p, sum, st)
	}
	if err := os.Remove(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "c")
	_ = os.WriteFile(p, []byte("c"), 0o755)
	sum, _ := FileSHA256(p)
	st, _ := stampOf(p)
	c.remember(p, sum, st)
	c2 := newDigestCache(cachePath)
	c2.once.Do(c2.load)
	c2.mu.Lock()
	c2.decodeLocked()
	c2.mu.Unlock()
	if _, ok := c2.entries[filepath.Join(dir, "a")]; ok || len(c2.entries) != 2 {
		t.Fatalf("entries after a file vanished: %v", c2.entries)
	}
}

// An install records the digest of what it wrote, so the first run after
// it does not hash the plugin again; a change after the install is not
// vouched for.
func TestInstallRecordsTheDigest(t *testing.T) {
	if !stampSupported {
		t.Skip("no file stamps on " + runtime.GOOS)
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "plugin")
	if err := os.WriteFile(exe, []byte("built"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newDigestCache(filepath.Join(dir, "digests.json"))
	sum, err := hashInstalled(c, exe)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := FileSHA256(exe); sum != want {
		t.Fatalf("sum %s, want %s", sum, want)
	}
	if !c.verified(exe, sum) {
		t.Fatal("the installed executable is not verified by its stamp")
	}
	if err := os.WriteFile(exe, []byte("tampered"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c.verified(exe, sum) {
		t.Fatal("a changed executable is still vouched for")
	}
}
