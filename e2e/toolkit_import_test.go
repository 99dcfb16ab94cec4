package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// corpus is the mcp-assert example corpus shared with this machine (MIT).
const corpus = "/work/shared/third-party/mcp-assert-examples"

// TestImportCorpus converts every file of the mcp-assert corpus: each
// either becomes a test of a suite that validates, or is listed with its
// file, line and reason. Counting both sides against the files on disk
// catches a file that is silently dropped.
func TestImportCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the mcp-assert corpus is not on this machine: %v", err)
	}
	var files int
	_ = filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "fixtures" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files++
		}
		return nil
	})
	out := filepath.Join(t.TempDir(), "all.yml")
	r := mcptest(t, "import", "mcp-assert", corpus, "-o", out)
	if r.code != 0 {
		t.Fatalf("import failed:\n%s", r)
	}
	m := regexp.MustCompile(`(\d+) of (\d+) file\(s\) converted, (\d+) not converted`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no summary:\n%s", r)
	}
	if m[2] != itoa(files) {
		t.Errorf("import read %s files, the corpus has %d", m[2], files)
	}
	located := regexp.MustCompile(`^` + regexp.QuoteMeta(corpus) + `/\S+\.ya?ml:\d+: (not converted|note): .+`)
	notConverted := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		if !located.MatchString(line) {
			t.Errorf("an issue without a file and line: %q", line)
		}
		if strings.Contains(line, ": not converted: ") {
			notConverted++
		}
	}
	if itoa(notConverted) != m[3] {
		t.Errorf("%s files not converted but %d located reasons", m[3], notConverted)
	}
	if v := mcptest(t, "validate", out); v.code != 0 {
		t.Fatalf("the imported suite does not validate:\n%s", v)
	}
}

// TestImportFilesystemRuns converts mcp-assert's filesystem examples
// (copied into testdata) and runs them against the reference filesystem
// server from .ci/npm, each test on its own copy of the fixtures.
func TestImportFilesystemRuns(t *testing.T) {
	npm := filepath.Join(root, ".ci", "npm")
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@modelcontextprotocol", "server-filesystem")); err != nil {
		t.Skip("the filesystem server is not installed (npm install --prefix .ci/npm)")
	}
	src := filepath.Join(root, "e2e", "testdata", "mcp-assert", "filesystem")
	out := filepath.Join(t.TempDir(), "fs.yml")
	r := mcptest(t, "import", "mcp-assert", "--npm-prefix", npm, src, "-o", out)
	if r.code != 0 {
		t.Fatalf("import failed:\n%s", r)
	}
	// move_file needs its setup step in the fixture copy, which a
	// composition node cannot name yet: it is listed, located.
	mustContain(t, "summary", r.stdout, "13 of 14 file(s) converted")
	mustContain(t, "issues", r.stderr, "move_file.yaml:8: not converted")
	raw, _ := os.ReadFile(out)
	// Isolation as mcp-assert gives it, per the server's annotations: a
	// fresh process (and fixture copy) after any test that could write.
	mustContain(t, "suite", string(raw), "restart_policy: after_write", "${fixture}", "server-filesystem")
	run := mcptest(t, "run", out)
	if run.code != 0 {
		t.Fatalf("the imported filesystem suite should pass:\n%s\n%s", run, raw)
	}
	mustContain(t, "run", run.stdout, "13 passed")
}

// TestImportIsolationFlags: the importer writes restart_policy
// after_write by default, per_test with --strict-isolation and nothing
// (one process for the run) with --share-servers, and refuses both flags
// at once.
func TestImportIsolationFlags(t *testing.T) {
	src := filepath.Join(t.TempDir(), "checks")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	check := "name: echo\nserver:\n  command: ./server\nassert:\n  tool: echo\n  args: {message: hi}\n  expect:\n    not_error: true\n"
	if err := os.WriteFile(filepath.Join(src, "echo.yaml"), []byte(check), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "restart_policy: after_write"},
		{[]string{"--strict-isolation"}, "restart_policy: per_test"},
		{[]string{"--share-servers"}, ""},
	} {
		out := filepath.Join(t.TempDir(), "suite.yml")
		args := append(append([]string{"import", "mcp-assert"}, c.flags...), src, "-o", out)
		if r := mcptest(t, args...); r.code != 0 {
			t.Fatalf("%v: %s", c.flags, r)
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" {
			if strings.Contains(string(raw), "restart_policy") {
				t.Errorf("%v wrote a restart_policy:\n%s", c.flags, raw)
			}
		} else {
			mustContain(t, fmt.Sprint(c.flags), string(raw), c.want)
		}
		if v := mcptest(t, "validate", out); v.code != 0 {
			t.Errorf("%v: the suite does not validate:\n%s", c.flags, v)
		}
	}
	r := mcptest(t, "import", "mcp-assert", "--strict-isolation", "--share-servers", src, "-o", filepath.Join(t.TempDir(), "x.yml"))
	if r.code != 2 || !strings.Contains(r.stderr, "contradict") {
		t.Errorf("both flags: want exit 2 naming the conflict, got %s", r)
	}
}
