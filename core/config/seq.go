package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// seq returns the items of an array; what names it for the message.
func (l *loader) seq(n *yaml.Node, ptr, what string) ([]*yaml.Node, bool) {
	if l.lazy[n] != nil {
		// A cut block is read with eachItem only; any other reader makes
		// the file load again, parsed whole (split.go).
		l.splitFailed = true
		return nil, true
	}
	d := yamlpos.Deref(n)
	if d.Kind != yaml.SequenceNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an array), found %s", what, yamlpos.Describe(d)), "")
		return nil, false
	}
	return d.Content, true
}

// nonEmptySeq returns the items of an array that must have at least one.
func (l *loader) nonEmptySeq(n *yaml.Node, ptr, what string) ([]*yaml.Node, bool) {
	items, ok := l.seq(n, ptr, what)
	if ok && len(items) == 0 {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an array) with at least one element, found an empty array", what), "")
		return nil, false
	}
	return items, ok
}
