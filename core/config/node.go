package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAML core tags, as yaml.v3 reports them through Node.ShortTag.
const (
	tagStr       = "!!str"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagBool      = "!!bool"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
	tagMerge     = "!!merge"
	tagMap       = "!!map"
	tagSeq       = "!!seq"
)

// entry is one key/value pair of a YAML mapping, after merge keys are
// expanded.
type entry struct {
	key     string
	keyNode *yaml.Node
	value   *yaml.Node // as written: it may be an alias
}

// deref follows aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	// yaml.v3 cannot anchor an alias, so one hop is the norm; the bound
	// only protects against a malformed hand-built tree.
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// describe names what node n (dereferenced) is, for "found ..." messages.
func describe(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "an array"
	case yaml.ScalarNode:
	default:
		return "an empty document"
	}
	switch n.ShortTag() {
	case tagStr:
		return "a string (" + quoteShort(n.Value) + ")"
	case tagInt:
		return "an integer (" + short(n.Value) + ")"
	case tagFloat:
		return "a number (" + short(n.Value) + ")"
	case tagBool:
		return "a boolean (" + n.Value + ")"
	case tagNull:
		return "null"
	case tagTimestamp:
		return "a timestamp (" + short(n.Value) + ")"
	case tagBinary:
		return "binary data"
	default:
		return "a value tagged " + n.Tag
	}
}

// short truncates s for display in a message.
func short(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// quoteShort quotes s, truncated, for display in a message.
func quoteShort(s string) string { return strconv.Quote(short(s)) }

// isMergeKey reports whether k (dereferenced) is the YAML merge key <<.
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == tagMerge
}

// child returns the JSON pointer of key under the pointer ptr.
func child(ptr, key string) string {
	if strings.ContainsAny(key, "~/") {
		key = strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	}
	return ptr + "/" + key
}

// keyString returns the key of a mapping entry, which must be a string
// (or a scalar whose JSON form is a string, such as a timestamp).
func (l *loader) keyString(k *yaml.Node, ptr string) (string, bool) {
	kd := deref(k)
	if s, ok := stringOf(kd); ok {
		return s, true
	}
	hint := ""
	if kd.Kind == yaml.ScalarNode {
		hint = fmt.Sprintf("quote the key: %q", kd.Value)
	}
	l.c.add(k, ptr, "object keys must be strings, found "+describe(kd), hint)
	return "", false
}

// entries lists the pairs of mapping m (dereferenced) in document order,
// expanding merge keys: an explicit key wins over a merged one, and an
// earlier merge source wins over a later one. A repeated key and a key that
// is not a string are errors; their entries are left out.
func (l *loader) entries(m *yaml.Node, ptr string) []entry {
	content := m.Content
	out := make([]entry, 0, len(content)/2)
	var index map[string]*yaml.Node // built once the mapping is large
	hasMerge := false
	for i := 0; i+1 < len(content); i += 2 {
		k := content[i]
		if isMergeKey(deref(k)) {
			hasMerge = true
			continue
		}
		key, ok := l.keyString(k, ptr)
		if !ok {
			continue
		}
		var prev *yaml.Node
		if index != nil {
			prev = index[key]
		} else {
			for j := range out {
				if out[j].key == key {
					prev = out[j].keyNode
					break
				}
			}
		}
		if prev != nil {
			l.c.add(k, child(ptr, key), fmt.Sprintf("duplicate key %q", key),
				fmt.Sprintf("first defined at line %d", prev.Line))
			continue
		}
		out = append(out, entry{key: key, keyNode: k, value: content[i+1]})
		if index == nil && len(out) > 16 {
			index = make(map[string]*yaml.Node, len(content)/2)
			for _, e := range out {
				index[e.key] = e.keyNode
			}
		} else if index != nil {
			index[key] = k
		}
	}
	if hasMerge {
		out = l.merge(m, ptr, out)
	}
	return out
}

// merge inserts the entries brought by the merge keys of m, at the place
// of each merge key, into the explicit entries of m.
func (l *loader) merge(m *yaml.Node, ptr string, explicit []entry) []entry {
	have := make(map[string]bool, len(explicit))
	for _, e := range explicit {
		have[e.key] = true
	}
	out := make([]entry, 0, len(explicit)+8)
	j := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !isMergeKey(deref(k)) {
			if j < len(explicit) && explicit[j].keyNode == k {
				out = append(out, explicit[j])
				j++
			}
			continue
		}
		v := m.Content[i+1]
		for _, src := range l.mergeSources(v, ptr) {
			for _, e := range l.mergeEntries(src, v, ptr) {
				if !have[e.key] {
					have[e.key] = true
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// mergeSources returns the mappings named by the value of a merge key: one
// mapping or an array of mappings.
func (l *loader) mergeSources(v *yaml.Node, ptr string) []*yaml.Node {
	d := deref(v)
	switch d.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{d}
	case yaml.SequenceNode:
		srcs := make([]*yaml.Node, 0, len(d.Content))
		for _, item := range d.Content {
			if di := deref(item); di.Kind == yaml.MappingNode {
				srcs = append(srcs, di)
			} else {
				l.c.add(item, ptr, "merge key << expects objects, found "+describe(di), "")
			}
		}
		return srcs
	}
	l.c.add(v, ptr, "merge key << expects an object or an array of objects, found "+describe(d), "")
	return nil
}

// mergeEntries returns the entries of a merge source, computed once per
// source so that its errors are reported once and repeated merges cost
// nothing; a source that merges itself is an error, reported at the value
// of the merge key (at).
func (l *loader) mergeEntries(src, at *yaml.Node, ptr string) []entry {
	if es, ok := l.merged[src]; ok {
		return es
	}
	if l.expanding[src] {
		l.c.add(at, ptr, "merge key << makes an object include itself", "")
		return nil
	}
	l.expanding[src] = true
	es := l.entries(src, ptr)
	delete(l.expanding, src)
	l.merged[src] = es
	return es
}

// hasKey reports whether mapping m has a string key k, without checking
// anything else.
func hasKey(m *yaml.Node, k string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kd := deref(m.Content[i]); kd.Kind == yaml.ScalarNode && kd.Value == k {
			return true
		}
	}
	return false
}

// maxAliasFollows bounds how many aliases the recursive readers (matchers,
// rubric trees, composition arguments) may follow in one file: aliases
// nested in aliases expand exponentially, and a suite must fail rather
// than hang.
const maxAliasFollows = 10000

// enter starts reading node n in a recursive reader. It returns false,
// after reporting it, when n is an alias to a value being read (the value
// would contain itself) or when the file has followed too many aliases.
// Every successful enter is paired with leave.
func (l *loader) enter(n *yaml.Node, ptr string) bool {
	d := deref(n)
	if n.Kind == yaml.AliasNode {
		l.aliasFollows++
		if l.aliasFollows > maxAliasFollows {
			if l.aliasFollows == maxAliasFollows+1 {
				l.c.add(n, ptr, fmt.Sprintf("aliases expand to more than %d nested values", maxAliasFollows),
					"check for aliases of aliases that multiply")
			}
			return false
		}
	}
	if l.reading[d] {
		l.c.add(n, ptr, "alias *"+n.Value+" makes a value contain itself", "")
		return false
	}
	l.reading[d] = true
	return true
}

// leave ends the reading of n started by enter.
func (l *loader) leave(n *yaml.Node) { delete(l.reading, deref(n)) }
