package plugin

import (
	"io"
	"io/fs"
	"os"

	"github.com/mcptest/mcptest/internal/safefile"
)

// readManifestFile reads a manifest, refusing anything but a regular file
// of at most maxManifestSize bytes before it reads (a FIFO would block,
// a device or a huge file would never end). It also returns what the
// opened file is (fstat), for the ownership checks: those must judge the
// file actually read, not whatever the path names a moment later.
func readManifestFile(path string) ([]byte, os.FileInfo, error) {
	f, info, err := safefile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > maxManifestSize {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: &safefile.TooLargeError{Size: info.Size(), Limit: maxManifestSize}}
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxManifestSize+1))
	if err != nil {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if len(raw) > maxManifestSize {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: &safefile.TooLargeError{Size: int64(len(raw)), Limit: maxManifestSize}}
	}
	return raw, info, nil
}
