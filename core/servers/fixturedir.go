package servers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/capture"
	"github.com/mcptest/mcptest/core/config"
)

// Fixture directories: a server with fixture: gets a fresh copy of the
// directory each time it starts, so what a test writes there never
// reaches the original or (with restart_policy: per_test) another test.
// ${fixture} in the server's command and env and in its tests' requests
// expands to the copy's absolute path.

// fixtureRef matches ${fixture}.
var fixtureRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{` + config.FixtureVar + `\}`) })

// fixtureMarker is what a string holds when it refers to the fixture.
const fixtureMarker = "${" + config.FixtureVar + "}"

// CopyFixture copies the directory src into a new temporary directory and
// returns the copy's path. Regular files, directories and symbolic links
// (as links, never followed) are copied with their permission bits;
// anything else (sockets, devices) is an error. On error nothing is left
// behind.
func CopyFixture(src string) (string, error) {
	dst, err := os.MkdirTemp("", "mcptest-fixture-")
	if err != nil {
		return "", fmt.Errorf("fixture %s: make the copy's directory: %w", src, err)
	}
	if err := copyTree(src, dst); err != nil {
		_ = os.RemoveAll(dst)
		return "", fmt.Errorf("fixture %s: copy: %w", src, err)
	}
	return dst, nil
}

// copyTree copies the contents of the directory src into dst, which
// exists.
func copyTree(src, dst string) error {
	root, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !root.IsDir() {
		return fmt.Errorf("%s is not a directory", src)
	}
	if err := os.Chmod(dst, root.Mode().Perm()|0o700); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			// The owner keeps write access, so the copy can be removed.
			return os.Mkdir(to, mode.Perm()|0o700)
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case mode.IsRegular():
			return copyFile(path, to, mode.Perm())
		}
		return fmt.Errorf("%s: cannot copy a %s", path, info.Mode().Type())
	})
}

// copyFile copies one regular file.
func copyFile(from, to string, perm fs.FileMode) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o200)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}

// RemoveFixture removes a copy; a copy that is already gone is fine.
func RemoveFixture(dir string) error {
	if dir == "" {
		return nil
	}
	// Directories a server made read-only would stop RemoveAll; the copy
	// is ours, so write access is restored first.
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(path, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the fixture copy %s: %w", dir, err)
	}
	return nil
}

// WithFixture returns srv with ${fixture} in its command and env replaced
// by dir; srv itself is unchanged.
func WithFixture(srv *config.Server, dir string) *config.Server {
	cp := *srv
	cp.Command = make([]string, len(srv.Command))
	for i, a := range srv.Command {
		cp.Command[i] = strings.ReplaceAll(a, fixtureMarker, dir)
	}
	cp.Env = make(map[string]string, len(srv.Env))
	for k, v := range srv.Env {
		cp.Env[k] = strings.ReplaceAll(v, fixtureMarker, dir)
	}
	return &cp
}

// WithFixture returns the request with ${fixture} replaced by dir in what
// it sends: the arguments, the raw params, a resource URI.
func (q Request) WithFixture(dir string) (Request, error) {
	if dir == "" {
		return q, nil
	}
	path := func([]string) (any, error) { return dir, nil }
	var err error
	if q.Method == MethodResourcesRead {
		q.Name = strings.ReplaceAll(q.Name, fixtureMarker, dir)
	}
	if q.Args != nil {
		if q.Args, err = capture.Substitute(q.Args, fixtureRef(), fixtureMarker, path); err != nil {
			return q, fmt.Errorf("expand ${fixture}: %w", err)
		}
	}
	if q.Raw != nil {
		if q.Raw, err = capture.Substitute(q.Raw, fixtureRef(), fixtureMarker, path); err != nil {
			return q, fmt.Errorf("expand ${fixture}: %w", err)
		}
	}
	return q, nil
}
