package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chownTree gives a directory tree to another user, as if that user had
// planted it; it is given back when the test ends so it can be removed.
func chownTree(t *testing.T, dir string, uid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving files to another user needs root")
	}
	walk := func(uid, gid int) error {
		return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, uid, gid)
		})
	}
	if err := walk(uid, uid); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = walk(os.Geteuid(), os.Getegid()) })
}

// A reporter planted by another user in a shared working directory's
// ./.mcptest/plugins must not run: the run stops with exit 2 naming the
// path and the fix, and runs only once the directory is trusted explicitly.
func TestPlantedPluginOfAnotherUserIsRefused(t *testing.T) {
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	pdir := filepath.Join(shared, ".mcptest", "plugins")
	if r := mcptest(t, "plugins", "install", "--dir", pdir, filepath.Join(fixtures, "altjson")); r.code != 0 {
		t.Fatalf("install:\n%s", r)
	}
	chownTree(t, filepath.Join(shared, ".mcptest"), 65534)
	suite := writeSuite(t, mixedSuite)

	r := mcptestIn(t, shared, nil, "run", "--reporter", "json", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 for a planted plugin:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, pdir, "owned by uid 65534", "--trust-plugin-dir "+pdir, "altjson@0.9.0")
	if strings.Contains(r.stdout, "ALTJSON") {
		t.Fatalf("the planted reporter ran:\n%s", r)
	}

	verify := mcptestIn(t, shared, nil, "plugins", "verify")
	if verify.code != 2 {
		t.Fatalf("verify should fail:\n%s", verify)
	}
	mustContain(t, "verify", verify.stdout, "FAIL altjson@0.9.0: trust: refused", "owned by uid 65534")
	mustContain(t, "verify", verify.stdout, "ok   json@0.1.0", "trust: ok")
	list := mcptestIn(t, shared, nil, "plugins", "list")
	mustContain(t, "list", list.stdout, "trust:    refused")

	trusted := mcptestIn(t, shared, nil, "run", "--trust-plugin-dir", pdir, "--reporter", "json", suite)
	if trusted.code != 1 || strings.TrimSpace(trusted.stdout) != "ALTJSON passed=1 failed=2 total=3" {
		t.Fatalf("the explicitly trusted reporter should run:\n%s", trusted)
	}
	verify = mcptestIn(t, shared, nil, "plugins", "verify", "--trust-plugin-dir", pdir)
	mustContain(t, "verify", verify.stdout, "ok   altjson@0.9.0", "trusted by --trust-plugin-dir")
	assertNoOrphans(t)
}

// Loose modes are refused even on the user's own files.
func TestGroupWritablePluginIsRefused(t *testing.T) {
	dir := install(t, "altjson")
	manifest := filepath.Join(dir, "altjson", "mcptest-plugin.yaml")
	if err := os.Chmod(manifest, 0o664); err != nil {
		t.Fatal(err)
	}
	r := mcptest(t, "run", "--plugin-dir", dir, "--reporter", "json", writeSuite(t, mixedSuite))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, manifest, "writable by its group", "chmod go-w "+manifest)
	// A plugin nobody asked for does not stop a run; it is only reported.
	r = mcptest(t, "run", "--plugin-dir", dir, writeSuite(t, mixedSuite))
	if r.code != 1 {
		t.Fatalf("a refused plugin the run does not need should not fail it:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "warning: plugin altjson@0.9.0", "is not trusted and will not run")
}

// Two plugins of one directory offering one key are reported by list and
// verify, and install refuses to create the conflict unless --force.
func TestPluginKeyConflictsAreReported(t *testing.T) {
	src := install(t, "altjson")
	dir := t.TempDir()
	copyPluginAs(t, filepath.Join(src, "altjson"), filepath.Join(dir, "other"), "altjson", "other")

	r := mcptest(t, "plugins", "install", "--dir", dir, filepath.Join(fixtures, "altjson"))
	if r.code != 2 {
		t.Fatalf("install should refuse the conflict:\n%s", r)
	}
	mustContain(t, "install", r.stderr, `reporter "json" is already offered by other@0.9.0`, filepath.Join(dir, "other"), "--force")
	if _, err := os.Stat(filepath.Join(dir, "altjson")); err == nil {
		t.Fatal("a refused install left files behind")
	}

	r = mcptest(t, "plugins", "install", "--force", "--dir", dir, filepath.Join(fixtures, "altjson"))
	if r.code != 0 {
		t.Fatalf("forced install:\n%s", r)
	}
	mustContain(t, "install", r.stderr, `conflict: reporter "json"`)

	list := mcptest(t, "plugins", "list", "--plugin-dir", dir)
	if list.code != 2 {
		t.Fatalf("list should fail on a conflict:\n%s", list)
	}
	mustContain(t, "list", list.stdout, "conflict: reporter json also offered by other@0.9.0", "conflict: reporter junit also offered by")
	verify := mcptest(t, "plugins", "verify", "--plugin-dir", dir)
	if verify.code != 2 {
		t.Fatalf("verify should fail on a conflict:\n%s", verify)
	}
	mustContain(t, "verify", verify.stdout, `FAIL conflict: reporter "json" is offered by several plugins in one directory`)
}

// copyPluginAs copies an installed plugin folder under another name.
func copyPluginAs(t *testing.T, from, to, oldName, newName string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o755)
		if e.Name() == "mcptest-plugin.yaml" {
			raw = []byte(strings.Replace(string(raw), "name: "+oldName, "name: "+newName, 1))
			mode = 0o644
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), raw, mode); err != nil {
			t.Fatal(err)
		}
	}
}
