package config

import (
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// serverTestKeys is the key spec of a kind of test that runs against one
// server: name and server (required), the kind's own keys, then the
// options every test takes (optionKeys).
func serverTestKeys(what string, own ...yamlpos.KeySpec) *yamlpos.ObjectSpec {
	keys := make([]yamlpos.KeySpec, 0, 2+len(own)+len(optionKeys))
	keys = append(keys, yamlpos.RequiredKey("name"), yamlpos.RequiredKey("server"))
	keys = append(keys, own...)
	return yamlpos.NewObjectSpec(what, append(keys, optionKeys...)...)
}

// rowTests reads a block of tests that may carry data rows (tools,
// resources, prompts): each item, expanded into one test per row, is read
// by read and named after its row. ok is false when the block itself is
// not an array.
func rowTests[T any](l *loader, n *yaml.Node, ptr, what string, read func(i int, item *yaml.Node, ptr string) *T, opts func(*T) (*string, *TestOptions)) (tests []*T, ok bool) {
	tests = []*T{}
	// eachItem, not seq: a large file's tests are read one at a time.
	ok = l.eachItem(n, ptr, what, func(i int, item *yaml.Node) {
		for _, ri := range l.expandRows(item, yamlpos.Index(ptr, i)) {
			if t := read(i, ri.node, yamlpos.Index(ptr, i)); t != nil {
				name, o := opts(t)
				applyRow(name, o, ri.row)
				tests = append(tests, t)
			}
		}
	})
	return tests, ok
}
