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
// escapes its folder through a symlink, is missing, is not a regular file,
// or that (like its folder) another user owns or may write. The ownership
// checks of discovery are repeated here, just before exec, to keep the
// window for a swap small.
func checkExecutable(f *Found) (string, error) {
	if f.Untrusted != nil {
		return "", f.Untrusted
	}
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
	if f.Source.Trusted {
		return exe, nil
	}
	if err := checkPathOwnership("plugin folder", dir, f.Source.Dir); err != nil {
		return "", err
	}
	if err := checkOwnership("executable", exe, st, f.Source.Dir); err != nil {
		return "", err
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
	if f.Untrusted != nil {
		// Hashing would say nothing useful; the trust line says why.
		return "not checked: the plugin is not trusted"
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
