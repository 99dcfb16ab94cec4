package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// checkExecutable resolves a plugin's executable and refuses one that
// escapes its folder through a symlink, is missing, is not a regular file or
// can be rewritten by anyone.
func checkExecutable(f *Found) (string, error) {
	dir, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		return "", fmt.Errorf("%w: resolve plugin folder: %w", ErrUnsafeExecutable, err)
	}
	exe, err := filepath.EvalSymlinks(f.Executable())
	if err != nil {
		return "", fmt.Errorf("%w: executable %q: %w", ErrPluginStart, f.Manifest.Executable, err)
	}
	rel, err := filepath.Rel(dir, exe)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: executable %q resolves to %s, outside the plugin folder %s",
			ErrUnsafeExecutable, f.Manifest.Executable, exe, dir)
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrPluginStart, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%w: executable %s is not a regular file", ErrUnsafeExecutable, exe)
	}
	if st.Mode().Perm()&0o002 != 0 {
		return "", fmt.Errorf("%w: executable %s is writable by every user; chmod o-w it", ErrUnsafeExecutable, exe)
	}
	return exe, nil
}

// FileSHA256 returns the hex SHA-256 of a file.
func FileSHA256(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ChecksumStatus says whether a plugin's executable matches its manifest:
// "ok", "mismatch", "missing" (no sha256 in the manifest) or an error text.
func ChecksumStatus(f *Found) string {
	if f.Manifest.SHA256 == "" {
		return "missing"
	}
	exe, err := checkExecutable(f)
	if err != nil {
		return "error: " + err.Error()
	}
	sum, err := FileSHA256(exe)
	if err != nil {
		return "error: " + err.Error()
	}
	if sum != f.Manifest.SHA256 {
		return "mismatch"
	}
	return "ok"
}
