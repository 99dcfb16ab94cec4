package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// fastVsYAML splits suite like a large file and reads each block's items
// both with fastItems and with yaml.v3. Where fastItems accepts a group,
// its nodes must equal yaml.v3's, positions included. It returns how many
// groups fastItems accepted.
func fastVsYAML(t *testing.T, suite []byte) (accepted int) {
	t.Helper()
	_, seqs, ok := splitText(suite)
	if !ok {
		return 0
	}
	for _, s := range seqs {
		for i := 0; i < len(s.chunks); {
			j := s.groupEnd(i)
			fast, r := fastItems(s, i, j)
			if fast != nil {
				defer r.release()
				accepted++
				slow := yamlGroup(s, i, j)
				if !reflect.DeepEqual(fast, slow) {
					text := string(s.data[s.chunks[i].start:s.chunks[j-1].end])
					t.Fatalf("fastItems differs from yaml.v3 on\n%s\nfast: %s\nyaml: %s", text, dumpNodes(fast), dumpNodes(slow))
				}
			}
			i = j
		}
	}
	return accepted
}

// dumpNodes shows nodes with their kinds, tags, styles and positions.
func dumpNodes(ns []*yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil {
			b.WriteString(strings.Repeat("  ", depth) + "<nil>\n")
			return
		}
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(yamlNodeLine(n))
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	for _, n := range ns {
		walk(n, 0)
	}
	return "\n" + b.String()
}

func yamlNodeLine(n *yaml.Node) string {
	return strings.Join([]string{
		"kind=" + itoa(int(n.Kind)), "tag=" + n.Tag, "style=" + itoa(int(n.Style)),
		"value=" + n.Value, "at=" + itoa(n.Line) + ":" + itoa(n.Column),
		"anchor=" + n.Anchor, "comments=" + n.HeadComment + "|" + n.LineComment + "|" + n.FootComment,
	}, " ") + "\n"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestFastItemsMatchYAML holds fastItems to yaml.v3 on the shapes large
// suites are written in, on shapes near the edge of its subset, and on
// every testdata suite.
func TestFastItemsMatchYAML(t *testing.T) {
	const head = "servers:\n  local: {command: [\"./server\"]}\ntools:\n"
	cases := []struct {
		name, items string
		fast        bool // fastItems must accept it
	}{
		{"bench item", "  - name: \"t000001\"\n    server: local\n    tool: echo\n    args: {message: hi 1}\n    expect:\n      - target: result.isError\n        matcher: {exact: false}\n", true},
		{"items at column 0", "- name: a\n  server: local\n  tool: echo\n- name: b\n  server: local\n  tool: echo\n", true},
		{"compact sequence", "  - name: a\n    expect:\n    - target: x\n      matcher: {contains: y}\n    - target: z\n      matcher: {exact: 3}\n    tool: t\n", true},
		{"nested mappings", "  - name: a\n    args:\n      deep:\n        deeper: v\n      n: -12\n      z: 0\n    tool: t\n", true},
		{"flow sequences", "  - name: a\n    tags: [x, y, \"z w\", 'q']\n    args: {list: [1, 2, {k: v}], e: {}, f: []}\n", true},
		{"scalars", "  - name: 'single'\n    a: true\n    b: False\n    c: null\n    d: NULL\n    e: yes\n    f: http://x/y\n    g: a b  c\n    h: 123456789012345678\n    i: $x\n    j: /abs\n", true},
		{"blank lines and trailing spaces", "  - name: a   \n\n    tool: t \n   \n  - name: b\n    tool: t\n\n", true},
		{"scalar items", "  - a\n  - \"b\"\n  - {x: y}\n  - [1]\n", true},
		{"several spaces after the dash", "  -   name: a\n      tool: t\n", true},
		{"keys with dashes and dots", "  - a-b: 1\n    c.d: 2\n    3: x\n    true: y\n", true},
		{"spaces in flow collections", "  - args: {  a:   b  ,c: \"d\"  }\n", true},
		// Shapes fastItems must leave to yaml.v3; each case also checks
		// that nothing it does accept differs.
		{"comment", "  - name: a # note\n", false},
		{"anchor", "  - &x {name: a}\n", false},
		{"block scalar", "  - name: |\n      text\n", false},
		{"escape", "  - name: \"a\\tb\"\n", false},
		{"doubled single quote", "  - name: 'it''s'\n", false},
		{"multi-line plain", "  - name: a\n      b\n", false},
		{"multi-line quoted", "  - name: \"a\n      b\"\n", false},
		{"null value", "  - name:\n    tool: t\n", false},
		{"float", "  - n: 1.5\n", false},
		{"leading zero", "  - n: 012\n", false},
		{"hex", "  - n: 0x1f\n", false},
		{"timestamp", "  - n: 2001-12-14\n", false},
		{"plus sign", "  - n: +5\n", false},
		{"merge key", "  - <<: {a: b}\n", false},
		{"colon in flow", "  - args: {u: a:b}\n", false},
		{"trailing comma", "  - args: {a: b,}\n", false},
		{"quoted key", "  - \"a\": b\n", false},
		{"non-ASCII", "  - name: caf\u00e9\n", false},
		{"tab", "  - name: a\n\ttool: t\n", false},
		{"nested dash", "  - - a\n", false},
		{"bare dash", "  -\n    name: a\n", false},
		{"odd indentation", "  - name: a\n     tool: t\n", false},
		{"flow over lines", "  - args: {a: b,\n      c: d}\n", false},
		{"text after flow", "  - args: {a: b} x\n", false},
		{"question mark", "  - name: what?\n", false},
		{"tilde", "  - name: ~\n", false},
		{"long key", "  - " + strings.Repeat("k", 200) + ": v\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := fastVsYAML(t, []byte(head+c.items))
			if c.fast && got == 0 {
				t.Errorf("fastItems left the group to yaml.v3")
			}
			if !c.fast && got != 0 {
				t.Errorf("fastItems read a group it should leave to yaml.v3")
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yml"))
	accepted := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		accepted += fastVsYAML(t, data)
	}
	if accepted < 20 {
		t.Errorf("fastItems read only %d groups of the testdata suites", accepted)
	}
}

// FuzzFastItemsMatchYAML: whatever group fastItems accepts, yaml.v3 reads
// to the same nodes. Seeds are the cases above and the testdata suites.
func FuzzFastItemsMatchYAML(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yml"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("tools:\n  - name: \"t1\"\n    server: local\n    args: {message: hi 1, l: [a, 'b']}\n    expect:\n    - target: r\n      matcher: {exact: false}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fastVsYAML(t, data)
	})
}

// TestSplitReusesSlabsSafely loads a suite of many groups, each item
// different and most in fastItems' subset, item by item and whole: the
// slabs of one group are reused for the next, so a node kept past its
// walk would show up as a difference between the two loads.
func TestSplitReusesSlabsSafely(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  s: {command: [x]}\nvariables:\n  who: {value: world}\ntools:\n")
	for n := range 4 * groupItems {
		fmt.Fprintf(&b, "  - name: \"t%d\"\n    server: s\n    tool: tool%d\n    tags: [a%d, b]\n", n, n%7, n%5)
		fmt.Fprintf(&b, "    args: {message: \"hi ${who} %d\", n: %d, deep: {list: [x%d, 'y']}}\n", n, n, n)
		fmt.Fprintf(&b, "    expect:\n      - target: result.content[0].text\n        matcher: {contains: \"hi %d\"}\n", n)
		if n%3 == 0 {
			fmt.Fprintf(&b, "      - target: result.isError\n        matcher: {not: {exact: true}}\n        message: m%d\n", n)
		}
		if n/groupItems == 2 && n%11 == 0 {
			b.WriteString("    timeout_ms: 5000 # a comment sends this group to yaml.v3\n")
		}
	}
	dir := writeFiles(t, map[string]string{"suite.yml": b.String()})
	if !loadBothWays(t, filepath.Join(dir, "suite.yml"), envOptions(nil)) {
		t.Fatal("the suite was not read item by item")
	}
	data := []byte(b.String())
	if got := fastVsYAML(t, data); got < 2 {
		t.Fatalf("fastItems read %d groups, want at least 2", got)
	}
}
