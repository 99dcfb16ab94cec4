package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// codeBlock is one fenced block of a markdown file.
type codeBlock struct {
	file, lang, text string
	line             int
}

var fence = regexp.MustCompile("(?m)^```([a-z]*)\n")

func docBlocks(t *testing.T) []codeBlock {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	var out []codeBlock
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(raw)
		for {
			loc := fence.FindStringSubmatchIndex(s)
			if loc == nil {
				break
			}
			lang := s[loc[2]:loc[3]]
			rest := s[loc[1]:]
			end := strings.Index(rest, "```")
			if end < 0 {
				t.Fatalf("%s: unclosed code block", f)
			}
			line := strings.Count(string(raw[:len(raw)-len(s)+loc[0]]), "\n") + 1
			out = append(out, codeBlock{file: filepath.Base(f), lang: lang, text: rest[:end], line: line})
			s = rest[end+3:]
		}
	}
	return out
}

// TestDocsExamples keeps the documentation honest: every YAML example is
// loaded and planned against the bundled plugins (fragments are wrapped in
// a suite first), complete suites that use the demo server are run and
// must pass, and every Go listing that names its file matches that file.
func TestDocsExamples(t *testing.T) {
	shoutDir := install(t, "shout")
	work := filepath.Dir(binDir)
	n := 0
	for _, b := range docBlocks(t) {
		name := b.file + ":" + strconv.Itoa(b.line)
		switch b.lang {
		case "go":
			first, _, _ := strings.Cut(b.text, "\n")
			path, ok := strings.CutPrefix(first, "// file: ")
			if !ok {
				continue
			}
			want, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if got := strings.TrimPrefix(b.text, first+"\n"); got != string(want) {
				t.Errorf("%s: listing differs from %s", name, path)
			}
			n++
		case "yaml":
			if path, ok := strings.CutPrefix(strings.SplitN(b.text, "\n", 2)[0], "# file: "); ok {
				// A listing of a repository file (run by its own tests):
				// it must be that file, word for word.
				want, err := os.ReadFile(filepath.Join(root, path))
				if err != nil {
					t.Errorf("%s: %v", name, err)
				} else if got := strings.TrimPrefix(b.text, "# file: "+path+"\n"); got != string(want) {
					t.Errorf("%s: listing differs from %s", name, path)
				}
				n++
				continue
			}
			if strings.HasPrefix(b.text, "# mock manifest") {
				// A manifest for `mcptest mock`, not a suite.
				path := filepath.Join(t.TempDir(), "mock.yml")
				if err := os.WriteFile(path, []byte(b.text), 0o644); err != nil {
					t.Fatal(err)
				}
				if r := mcptestIn(t, work, nil, "mock", "--check", path); r.code != 0 {
					t.Errorf("%s: the mock manifest does not check:\n%s", name, r)
				}
				n++
				continue
			}
			suite := wrapFragment(b.text)
			path := filepath.Join(t.TempDir(), "doc.yml")
			if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
				t.Fatal(err)
			}
			copyRowFiles(t, filepath.Dir(path))
			// Agent examples run when every model is the offline stub.
			stubOnly := strings.Contains(b.text, "agents:") && strings.Count(b.text, "model:") == strings.Count(b.text, "model: stub")
			runnable := strings.Contains(b.text, "servers:") && (strings.Contains(b.text, "tools:") || stubOnly) &&
				strings.Contains(b.text, "./bin/mcptest-demo-server\"]")
			cmd := "validate"
			if runnable {
				cmd = "run"
			}
			r := mcptestIn(t, work, nil, cmd, "--plugin-dir", shoutDir, path)
			if r.code != 0 {
				t.Errorf("%s: %s of the example failed:\n%s\n%s", name, cmd, suite, r)
			}
			n++
		}
	}
	if n < 12 {
		t.Fatalf("only %d examples checked; did the docs move?", n)
	}
}

// copyRowFiles puts the rows files of examples/data-rows beside a docs
// example, so examples that read rows from a file (data: {file: ...})
// load as they would beside that suite.
func copyRowFiles(t *testing.T, dir string) {
	t.Helper()
	for _, ext := range []string{"*.csv", "*.jsonl"} {
		files, _ := filepath.Glob(filepath.Join(root, "examples", "data-rows", ext))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// wrapFragment turns a documentation snippet into a complete suite.
func wrapFragment(text string) string {
	const server = "servers:\n  demo:\n    command: [\"./bin/mcptest-demo-server\"]\n"
	switch {
	case strings.HasPrefix(text, "- target:"):
		var b strings.Builder
		b.WriteString(server + "tools:\n  - name: doc\n    server: demo\n    tool: echo\n    expect:\n")
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			b.WriteString("      " + l + "\n")
		}
		return b.String()
	case !strings.Contains(text, "servers:"):
		return server + text
	}
	return text
}
