package plugin

import (
	"fmt"
	"io"
	"os"
)

// MaxManifestBytes caps a manifest read: real ones are a few hundred bytes,
// and a plugin folder is not trusted to hold a sane file until it is read.
const MaxManifestBytes = 1 << 20

// readManifestFile reads a manifest, refusing anything but a regular file
// of at most MaxManifestBytes before it reads (a FIFO would block the open,
// a device or a huge file would never end). It returns what the opened file
// is, for the ownership checks.
func readManifestFile(path string) ([]byte, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	if st.Size() > MaxManifestBytes {
		return nil, nil, fmt.Errorf("%s is %d bytes, more than a manifest may have (%d)", path, st.Size(), MaxManifestBytes)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	opened, err := fh.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !os.SameFile(st, opened) {
		return nil, nil, fmt.Errorf("%s changed while it was opened", path)
	}
	raw, err := io.ReadAll(io.LimitReader(fh, MaxManifestBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(raw) > MaxManifestBytes {
		return nil, nil, fmt.Errorf("%s grew past %d bytes while it was read", path, MaxManifestBytes)
	}
	return raw, opened, nil
}
