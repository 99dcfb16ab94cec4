package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/vars"
	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// rowItem is one test to read: the item as written, or one copy of it per
// data row with the row substituted.
type rowItem struct {
	node *yaml.Node
	row  *DataRow
}

// maxRowDepth bounds the nesting copyNode follows (aliases included), so
// a recursive anchor cannot make a copy endless.
const maxRowDepth = 200

// expandRows returns the tests an item of a tools, resources or prompts
// block stands for: itself when it has no data key, else one copy per row
// (without the data key) with every ${data.FIELD} in its values replaced.
// A reference to a field a row lacks is an error at the reference.
func (l *loader) expandRows(item *yaml.Node, ptr string) []rowItem {
	m := yamlpos.Deref(item)
	if m.Kind != yaml.MappingNode || !yamlpos.HasKey(m, "data") {
		l.strayDataRefs(item, ptr, "the test has no data", "add data: [{...}] rows to the test", 0)
		return []rowItem{{node: item}}
	}
	var dataNode *yaml.Node
	template := ""
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: m.Tag, Line: m.Line, Column: m.Column, Style: m.Style}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch yamlpos.Deref(k).Value {
		case "data":
			dataNode = v
			continue
		case "name":
			template, _ = yamlpos.StringOf(yamlpos.Deref(v))
		}
		rest.Content = append(rest.Content, k, v)
	}
	rows, ok := l.dataRowNodes(dataNode, yamlpos.Child(ptr, "data"))
	if !ok {
		// Read the test once without rows, so its other errors show too.
		return []rowItem{{node: rest}}
	}
	if k := keyNode(m, "capture"); k != nil && len(rows) > 1 {
		l.C.Add(k, yamlpos.Child(ptr, "capture"), "a test with data rows cannot capture: every row would set the same names",
			"capture in a test without data, and let the rows use ${capture:NAME}")
	}
	out := make([]rowItem, 0, len(rows))
	for i, row := range rows {
		dr := &DataRow{Index: i, Suffix: strconv.Itoa(i), Template: template}
		if v := field(row, []string{"name"}); v != nil && v.Kind == yaml.ScalarNode && v.Value != "" {
			dr.Suffix = v.Value
		}
		e := &rowExpansion{l: l, row: row, index: i, suffix: dr.Suffix}
		node, ok := e.copyNode(rest, ptr, 0)
		if !ok {
			continue
		}
		out = append(out, rowItem{node: node, row: dr})
	}
	return out
}

// strayDataRefs reports ${data.FIELD} in a test without data rows: left
// as it is, the text would reach the server verbatim.
// why and hint say why the reference cannot be resolved there.
func (l *loader) strayDataRefs(n *yaml.Node, ptr, why, hint string, depth int) {
	if depth > maxRowDepth || depth == 0 && !mentionsData(n, 0) {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if refs, _ := vars.DataRefs(n.Value); len(refs) > 0 && n.ShortTag() == yamlpos.TagStr {
			l.C.Add(n, ptr, fmt.Sprintf("${data.%s} refers to a data row, but %s", strings.Join(refs[0].Path, "."), why), hint)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			l.strayDataRefs(n.Content[i+1], yamlpos.Child(ptr, yamlpos.Deref(n.Content[i]).Value), why, hint, depth+1)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			l.strayDataRefs(c, yamlpos.Index(ptr, i), why, hint, depth+1)
		}
	}
}

// mentionsData reports whether strayDataRefs could find anything under
// n: the same walk, without building a pointer for every node (most
// tests have no data reference, and a large suite has many tests).
func mentionsData(n *yaml.Node, depth int) bool {
	if depth > maxRowDepth {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return strings.Contains(n.Value, vars.DataPrefix)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if mentionsData(n.Content[i+1], depth+1) {
				return true
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if mentionsData(c, depth+1) {
				return true
			}
		}
	}
	return false
}

// rowExpansion substitutes one row into a copy of a test.
type rowExpansion struct {
	l      *loader
	row    *yaml.Node
	index  int
	suffix string
}

// copyNode copies n, with aliases resolved (each row gets its own nodes)
// and the data references of its string values replaced. Keys are copied
// as written. It returns false when a reference could not be resolved
// (the error is recorded).
func (e *rowExpansion) copyNode(n *yaml.Node, ptr string, depth int) (*yaml.Node, bool) {
	if depth > maxRowDepth {
		e.l.C.Add(n, ptr, "the test is nested too deeply to expand its data rows", "")
		return nil, false
	}
	d := yamlpos.Deref(n)
	switch d.Kind {
	case yaml.ScalarNode:
		return e.scalar(d, ptr)
	case yaml.MappingNode:
		c := *d
		c.Content = make([]*yaml.Node, 0, len(d.Content))
		ok := true
		for i := 0; i+1 < len(d.Content); i += 2 {
			k := yamlpos.Deref(d.Content[i])
			v, vok := e.copyNode(d.Content[i+1], yamlpos.Child(ptr, k.Value), depth+1)
			if !vok {
				ok = false
				continue
			}
			kc := *k
			c.Content = append(c.Content, &kc, v)
		}
		return &c, ok
	case yaml.SequenceNode:
		c := *d
		c.Content = make([]*yaml.Node, 0, len(d.Content))
		ok := true
		for i, item := range d.Content {
			v, vok := e.copyNode(item, yamlpos.Index(ptr, i), depth+1)
			if !vok {
				ok = false
				continue
			}
			c.Content = append(c.Content, v)
		}
		return &c, ok
	}
	c := *d
	return &c, true
}

// scalar substitutes the row into one scalar. A string that is exactly
// one reference becomes the field's value with its type (a number stays a
// number, an object an object), as a capture does; a reference inside
// longer text becomes the field's text (a string as it is, anything else
// as compact JSON).
func (e *rowExpansion) scalar(n *yaml.Node, ptr string) (*yaml.Node, bool) {
	c := *n
	if n.ShortTag() != yamlpos.TagStr {
		return &c, true
	}
	refs, whole := vars.DataRefs(n.Value)
	if len(refs) == 0 {
		return &c, true
	}
	values := make([]*yaml.Node, len(refs))
	for i, r := range refs {
		v := field(e.row, r.Path)
		if v == nil {
			e.l.C.Add(n, ptr, fmt.Sprintf("data row %s has no field %q (referenced by ${data.%s})", e.rowName(), strings.Join(r.Path, "."), strings.Join(r.Path, ".")),
				"the row has: "+strings.Join(fieldNames(e.row), ", "))
			return nil, false
		}
		values[i] = v
	}
	if whole {
		return placed(values[0], n.Line, n.Column, 0), true
	}
	i := 0
	c.Value = vars.ReplaceDataRefs(n.Value, refs, func(vars.DataRef) string {
		v := values[i]
		i++
		if v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return string(e.l.ToJSON(v, ptr))
	})
	return &c, true
}

// rowName names the current row in messages: its index and, when it has
// one, its name.
func (e *rowExpansion) rowName() string {
	if e.suffix != strconv.Itoa(e.index) {
		return fmt.Sprintf("%d (%q)", e.index, e.suffix)
	}
	return strconv.Itoa(e.index)
}

// keyNode returns the key node of key in mapping m, or nil.
func keyNode(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if yamlpos.Deref(m.Content[i]).Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// field follows a path of keys into a row; nil when a key is missing.
func field(row *yaml.Node, path []string) *yaml.Node {
	n := yamlpos.Deref(row)
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if yamlpos.Deref(n.Content[i]).Value == key {
				next = yamlpos.Deref(n.Content[i+1])
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// fieldNames lists a row's top-level fields, sorted, for hints.
func fieldNames(row *yaml.Node) []string {
	n := yamlpos.Deref(row)
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, yamlpos.Deref(n.Content[i]).Value)
	}
	sort.Strings(out)
	return out
}

// placed copies a row's value to the place of the reference it replaces,
// so that errors about the value point at the test, where it is used.
func placed(v *yaml.Node, line, col, depth int) *yaml.Node {
	d := yamlpos.Deref(v)
	c := *d
	c.Line, c.Column = line, col
	if len(d.Content) > 0 && depth < maxRowDepth {
		c.Content = make([]*yaml.Node, len(d.Content))
		for i, ch := range d.Content {
			c.Content[i] = placed(ch, line, col, depth+1)
		}
	}
	return &c
}

// applyRow names a test expanded from a row: its substituted name with
// the row's suffix, so each row is its own, recognisable result.
func applyRow(name *string, o *TestOptions, row *DataRow) {
	if row == nil {
		return
	}
	*name += " [" + row.Suffix + "]"
	o.Row = row
}
