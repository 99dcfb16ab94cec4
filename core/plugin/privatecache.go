package plugin

import (
	"io"
	"os"

	"github.com/mcptest/mcptest/internal/safefile"
)

// readPrivateCache returns the bytes of one of the private cache files
// (verified digests, parsed manifests, vetting verdicts), or nil when the
// file should not be trusted or read: missing, not a regular file (a FIFO
// there must not block the run), larger than limit, or owned by someone
// else or writable by others (whoever could write it could vouch for any
// binary, manifest or argument). The checks are made on the file actually
// opened. Each cache only saves work, so every refusal just means doing
// the work again.
func readPrivateCache(path string, limit int64) []byte {
	f, size := openPrivateCache(path, limit)
	if f == nil {
		return nil
	}
	defer f.Close()
	// One buffer of the size the file has (and a byte more, to see it
	// grow): io.ReadAll would double its way up from 512 bytes, a few
	// hundred kilobytes copied and zeroed again for a full vetting cache.
	raw := make([]byte, size+1)
	n, err := io.ReadFull(f, raw)
	if err != io.ErrUnexpectedEOF && err != io.EOF {
		// Filled up: the file grew after the stat (or failed to read).
		return nil
	}
	return raw[:n]
}

// openPrivateCache opens one of the private cache files for reading and
// returns it with its size, or nil when readPrivateCache would refuse it.
func openPrivateCache(path string, limit int64) (*os.File, int) {
	if path == "" {
		return nil, 0
	}
	f, info, err := safefile.Open(path)
	if err != nil {
		return nil, 0
	}
	if !ownedPrivately(info) || info.Size() > limit {
		f.Close()
		return nil, 0
	}
	return f, int(info.Size())
}
