package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// loadBothWays loads path parsed whole and item by item (splitMinSize 0),
// and fails unless both give the same suite, positions included, and the
// same errors. It reports whether the item-by-item load went through
// without falling back to the whole parse.
func loadBothWays(t *testing.T, path string, opts Options) (split bool) {
	t.Helper()
	old := splitMinSize
	defer func() { splitMinSize = old }()

	splitMinSize = 1 << 62
	whole, werr := LoadWith(path, opts)

	splitMinSize = 0
	b := newBuild(opts)
	b.run(path)
	for _, d := range b.order {
		split = split || d.l.lazy != nil
	}
	split = split && !b.splitFailed()
	lean, lerr := LoadWith(path, opts)

	if (werr == nil) != (lerr == nil) || werr != nil && werr.Error() != lerr.Error() {
		t.Fatalf("%s: errors differ\nwhole: %v\nsplit: %v", path, werr, lerr)
	}
	if whole != nil {
		whole.lookupEnv, lean.lookupEnv = nil, nil
		if !reflect.DeepEqual(whole, lean) {
			t.Fatalf("%s: suites differ:\n%s", path, diffFields(reflect.ValueOf(whole).Elem(), reflect.ValueOf(lean).Elem(), "Suite"))
		}
	}
	return split
}

// TestSplitLoadMatchesWholeLoad loads every testdata suite, valid and
// invalid, both ways.
func TestSplitLoadMatchesWholeLoad(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yml"))
	if len(files) < 100 {
		t.Fatalf("only %d testdata suites", len(files))
	}
	splits := 0
	for _, f := range files {
		if loadBothWays(t, f, testOptions()) {
			splits++
		}
	}
	// Most suites have a tools block: the comparison must not be vacuous.
	if splits < len(files)/3 {
		t.Errorf("only %d of %d suites were read item by item", splits, len(files))
	}
}

// TestSplitShapes covers the shapes the text split must handle, or hand
// back to the whole parse: each must load as the whole parse does.
func TestSplitShapes(t *testing.T) {
	const head = "servers:\n  s: {command: [x]}\nvariables:\n  who: {value: world}\n"
	cases := []struct {
		name, suite string
		split       bool // read item by item without falling back
	}{
		{"indented items", head + "tools:\n  - name: a\n    server: s\n    tool: t\n    args: {m: \"hi ${who}\"}\n  - name: b\n    server: s\n    tool: t\n", true},
		{"items at column 0", head + "tools:\n- name: a\n  server: s\n  tool: t\n- name: b\n  server: s\n  tool: t\nprompts: []\n", true},
		{"comments and blank lines", "# a suite\n" + head + "tools: # the tests\n\n  # first\n  - name: a\n    server: s\n\n    tool: t\n# between\n  - name: b\n    server: s\n    tool: t\n\n", true},
		{"block scalar", head + "tools:\n  - name: a\n    server: s\n    tool: t\n    args:\n      text: |\n        - not an item\n        line\n  - name: b\n    server: s\n    tool: t\n", true},
		{"errors inside items", head + "tools:\n  - name: a\n    server: nope\n    tool: t\n  - name: b\n    server: s\n    tol: t\n", true},
		{"document marker", "---\n" + head + "tools:\n  - {name: a, server: s, tool: t}\n", true},
		{"CRLF", "servers:\r\n  s: {command: [x]}\r\ntools:\r\n  - name: a\r\n    server: s\r\n    tool: t\r\n", true},
		{"unresolved variables", head + "tools:\n  - name: a\n    server: s\n    tool: t\n    args: {m: \"${nobody}\"}\n", true},
		{"unresolved variables before and after the items", head + "prompts:\n  - {name: p, server: s, prompt: \"p${first}\"}\n" +
			"tools:\n  - name: a\n    server: s\n    tool: t\n    args: {m: \"${second} ${first}\"}\nresources:\n  - {name: r, server: s, uri: \"file:///${third}\"}\n", true},
		{"two tools keys", head + "tools:\n  - {name: a, server: s, tool: t}\ntools:\n  - {name: b, server: s, tool: t}\n", true},
		{"alias within a group of items", head + "tools:\n  - &base {name: a, server: s, tool: t}\n  - <<: *base\n    name: b\n", true},
		{"alias across groups of items", head + "tools:\n  - &base {name: a, server: s, tool: t}\n" +
			strings.Repeat("  - {name: x, server: s, tool: t}\n", groupItems) + "  - <<: *base\n    name: b\n", false},
		{"quoted string across items", head + "tools:\n  - name: \"a\n  - b\"\n    server: s\n    tool: t\n", false},
		{"flow sequence", head + "tools: [{name: a, server: s, tool: t}]\n", false},
		{"not a sequence", head + "tools:\n  name: a\n", false},
		{"syntax error", head + "tools:\n  - name: [a\n    server: s\n", false},
		{"two documents", head + "tools:\n  - {name: a, server: s, tool: t}\n---\nx: 1\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"suite.yml": c.suite})
			if got := loadBothWays(t, filepath.Join(dir, "suite.yml"), envOptions(nil)); got != c.split {
				t.Errorf("read item by item: %v, want %v", got, c.split)
			}
		})
	}
}

// FuzzSplitMatchesWhole feeds arbitrary bytes to both ways of loading:
// the text split must never panic, and whatever it accepts must load to
// the suite and errors of the whole parse. Seeds are the testdata suites.
func FuzzSplitMatchesWhole(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yml"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	path := filepath.Join(f.TempDir(), "fuzz.yml")
	opts := testOptions()
	f.Fuzz(func(t *testing.T, data []byte) {
		old := splitMinSize
		defer func() { splitMinSize = old }()
		splitMinSize = 1 << 62
		whole, werr := loadBytesWith(path, data, opts)
		splitMinSize = 0
		lean, lerr := loadBytesWith(path, data, opts)
		if (werr == nil) != (lerr == nil) || werr != nil && werr.Error() != lerr.Error() {
			t.Fatalf("errors differ\nwhole: %v\nsplit: %v", werr, lerr)
		}
		if whole != nil {
			whole.lookupEnv, lean.lookupEnv = nil, nil
			if !reflect.DeepEqual(whole, lean) {
				t.Fatalf("suites differ:\n%s", diffFields(reflect.ValueOf(whole).Elem(), reflect.ValueOf(lean).Elem(), "Suite"))
			}
		}
	})
}
