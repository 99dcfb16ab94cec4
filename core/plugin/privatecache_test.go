package plugin

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A private cache file is read whole, whatever its size up to the limit;
// an empty one reads as empty, and one over the limit is not read.
func TestReadPrivateCacheSizes(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 300_000} {
		path := filepath.Join(dir, "c.json")
		want := bytes.Repeat([]byte{'x'}, n)
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got := readPrivateCache(path, 1<<20)
		if got == nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d bytes (nil: %v)", n, len(got), got == nil)
		}
		if n > 0 {
			if got := readPrivateCache(path, int64(n-1)); got != nil {
				t.Errorf("%d bytes with a limit of %d: read %d bytes, want none", n, n-1, len(got))
			}
		}
	}
}
