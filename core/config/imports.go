package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// resolveImports reads the files d imports, depth first, and appends them
// and then d to b.merge: an import's own imports are merged before it,
// and a file after everything it imports, so that later entries override
// earlier ones. chain is the path of imports that led to d, for cycles. A
// file imported twice (a diamond) is merged once, at its first place.
func (b *build) resolveImports(d *doc, chain []*doc) {
	for _, imp := range d.l.imports(d.root) {
		target := imp.path
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(d.abs), target)
		}
		target = filepath.Clean(target)
		if i := chainIndex(chain, target); i >= 0 {
			d.l.C.Add(imp.node, imp.ptr, "import cycle: "+cycleText(chain[i:]),
				"a file cannot import itself, directly or through other files")
			continue
		}
		if _, done := b.loaded[target]; done {
			continue
		}
		data, err := readFile(target)
		if err != nil {
			msg := fmt.Sprintf("cannot import %q: %v", imp.path, rootCause(err))
			if errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("cannot import %q: file not found", imp.path)
			}
			d.l.C.Add(imp.node, imp.ptr, msg, "looked for "+target+"; relative paths start at the importing file's directory")
			continue
		}
		shown := imp.path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(filepath.Dir(d.file), shown)
		}
		nd := b.open(shown, target, data)
		if nd.root != nil {
			b.resolveImports(nd, append(chain, nd))
		} else {
			b.merge = append(b.merge, nd)
		}
	}
	b.merge = append(b.merge, d)
}

// importRef is one entry of an imports block.
type importRef struct {
	path string
	node *yaml.Node
	ptr  string
}

// imports reads the imports block of a file: an array of non-empty paths.
func (l *loader) imports(root *yaml.Node) []importRef {
	n, ptr := topValue(root, "imports")
	if n == nil {
		return nil
	}
	items, ok := l.seq(n, ptr, "imports")
	if !ok {
		return nil
	}
	out := make([]importRef, 0, len(items))
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		if p, ok := l.NonEmptyStr(item, ip, "an import path"); ok {
			out = append(out, importRef{path: p, node: item, ptr: ip})
		}
	}
	return out
}

// chainIndex returns the position of the file at abs in chain, or -1.
func chainIndex(chain []*doc, abs string) int {
	for i, d := range chain {
		if d.abs == abs {
			return i
		}
	}
	return -1
}

// cycleText renders a cycle as "a.yml → b.yml → a.yml".
func cycleText(cycle []*doc) string {
	parts := make([]string, 0, len(cycle)+1)
	for _, d := range cycle {
		parts = append(parts, d.file)
	}
	parts = append(parts, cycle[0].file)
	return strings.Join(parts, " → ")
}

// rootCause strips the path from a file error.
func rootCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// topValue returns the value of a top-level key of the suite and its
// pointer, without reporting anything (the walk of the suite does).
func topValue(root *yaml.Node, key string) (*yaml.Node, string) {
	if root == nil {
		return nil, ""
	}
	scratch := newLoader("")
	for _, e := range scratch.Entries(yamlpos.Deref(root), "") {
		if e.Key == key {
			return e.Value, yamlpos.Child("", key)
		}
	}
	return nil, ""
}
