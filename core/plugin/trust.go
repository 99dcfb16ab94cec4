package plugin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUntrusted is wrapped when a plugin directory, plugin folder, manifest
// or executable is owned by another user, or can be written by one: whoever
// can change those files decides what mcptest runs, with the permissions of
// the user running it.
var ErrUntrusted = errors.New("plugin not trusted")

// TrustFlag is the command-line flag that trusts a directory explicitly;
// messages name it as the way out.
const TrustFlag = "--trust-plugin-dir"

// trustedBy reports whether dir is at or below one of the trusted
// directories. Both sides are compared as absolute, symlink-free paths where
// they exist, so a trusted directory reached by another name still counts.
func trustedBy(dir string, trusted []string) bool {
	dir = canonical(dir)
	for _, t := range trusted {
		t = canonical(t)
		if t == "" {
			continue
		}
		rel, err := filepath.Rel(t, dir)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// canonical returns the absolute, symlink-free form of path, or its
// absolute form when it does not exist.
func canonical(path string) string {
	if path == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// checkOwnership refuses a file or directory that another user owns or that
// anyone but its owner may write, as ssh's StrictModes does. what names it
// in the message ("plugin directory", "manifest", ...); source is the
// plugin directory a user would trust to accept it anyway.
func checkOwnership(what, path string, info os.FileInfo, source string) error {
	uid, ok := fileOwner(info)
	if !ok {
		// No owner to compare (not a Unix system): nothing to check.
		return nil
	}
	me := os.Geteuid()
	fix := fmt.Sprintf("or pass %s %s if you trust everyone who can write there", TrustFlag, source)
	if uid != uint32(me) && uid != 0 {
		chown := "chown"
		if info.IsDir() {
			chown = "chown -R"
		}
		return fmt.Errorf("%w: %s %s is owned by uid %d, not by you (uid %d) or root; whoever owns it decides what mcptest runs: remove it, or `%s %d %s`, %s",
			ErrUntrusted, what, path, uid, me, chown, me, path, fix)
	}
	perm := info.Mode().Perm()
	switch {
	case perm&0o002 != 0:
		return fmt.Errorf("%w: %s %s is writable by every user (mode %04o): run `chmod go-w %s`, %s",
			ErrUntrusted, what, path, perm, path, fix)
	case perm&0o020 != 0:
		return fmt.Errorf("%w: %s %s is writable by its group (mode %04o): run `chmod go-w %s`, %s",
			ErrUntrusted, what, path, perm, path, fix)
	}
	return nil
}

// checkPathOwnership stats path (following symlinks) and applies
// checkOwnership. A path that does not exist is not a trust problem: the
// caller reports it in its own terms.
func checkPathOwnership(what, path, source string) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return checkOwnership(what, path, info, source)
}

// TrustState describes how a plugin fared in the ownership checks, for
// `plugins list` and `plugins verify`.
func TrustState(f *Found) string {
	switch {
	case f.Untrusted != nil:
		return "refused: " + f.Untrusted.Error()
	case f.Source.Trusted:
		return "not checked: " + f.Source.Dir + " is trusted by " + TrustFlag
	}
	return "ok"
}
