package yamlpos

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAML core tags, as yaml.v3 reports them through Node.ShortTag.
const (
	TagStr       = "!!str"
	TagInt       = "!!int"
	TagFloat     = "!!float"
	TagBool      = "!!bool"
	TagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
	tagMerge     = "!!merge"
	tagMap       = "!!map"
	tagSeq       = "!!seq"
)

// Entry is one key/value pair of a YAML mapping, after merge keys are
// expanded.
type Entry struct {
	Key     string     // the key, a string
	KeyNode *yaml.Node // the key as written, for positions
	Value   *yaml.Node // as written: it may be an alias
}

// Deref follows aliases to the node they name.
func Deref(n *yaml.Node) *yaml.Node {
	// yaml.v3 cannot anchor an alias, so one hop is the norm; the bound
	// only protects against a malformed hand-built tree.
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// Describe names what node n (dereferenced) is, for "found ..." messages.
func Describe(n *yaml.Node) string {
	n = Deref(n)
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
	case TagStr:
		return "a string (" + QuoteShort(n.Value) + ")"
	case TagInt:
		return "an integer (" + short(n.Value) + ")"
	case TagFloat:
		return "a number (" + short(n.Value) + ")"
	case TagBool:
		return "a boolean (" + n.Value + ")"
	case TagNull:
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

// QuoteShort quotes s, truncated, for display in a message.
func QuoteShort(s string) string { return strconv.Quote(short(s)) }

// IsMergeKey reports whether k (dereferenced) is the YAML merge key <<.
func IsMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == tagMerge
}

// Child returns the JSON pointer of key under the pointer ptr.
func Child(ptr, key string) string {
	if strings.ContainsAny(key, "~/") {
		key = strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	}
	return ptr + "/" + key
}

// keyString returns the key of a mapping entry, which must be a string
// (or a scalar whose JSON form is a string, such as a timestamp).
func (l *Reader) keyString(k *yaml.Node, ptr string) (string, bool) {
	kd := Deref(k)
	if s, ok := StringOf(kd); ok {
		return s, true
	}
	hint := ""
	if kd.Kind == yaml.ScalarNode {
		hint = fmt.Sprintf("quote the key: %q", kd.Value)
	}
	l.C.Add(k, ptr, "object keys must be strings, found "+Describe(kd), hint)
	return "", false
}

// Entries lists the pairs of mapping m (dereferenced) in document order,
// expanding merge keys: an explicit key wins over a merged one, and an
// earlier merge source wins over a later one. A repeated key and a key that
// is not a string are errors; their entries are left out.
func (l *Reader) Entries(m *yaml.Node, ptr string) []Entry {
	content := m.Content
	out := make([]Entry, 0, len(content)/2)
	var index map[string]*yaml.Node // built once the mapping is large
	hasMerge := false
	for i := 0; i+1 < len(content); i += 2 {
		k := content[i]
		if IsMergeKey(Deref(k)) {
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
				if out[j].Key == key {
					prev = out[j].KeyNode
					break
				}
			}
		}
		if prev != nil {
			l.C.Add(k, Child(ptr, key), fmt.Sprintf("duplicate key %q", key),
				fmt.Sprintf("first defined at line %d", prev.Line))
			continue
		}
		out = append(out, Entry{Key: key, KeyNode: k, Value: content[i+1]})
		if index == nil && len(out) > 16 {
			index = make(map[string]*yaml.Node, len(content)/2)
			for _, e := range out {
				index[e.Key] = e.KeyNode
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
func (l *Reader) merge(m *yaml.Node, ptr string, explicit []Entry) []Entry {
	have := make(map[string]bool, len(explicit))
	for _, e := range explicit {
		have[e.Key] = true
	}
	out := make([]Entry, 0, len(explicit)+8)
	j := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !IsMergeKey(Deref(k)) {
			if j < len(explicit) && explicit[j].KeyNode == k {
				out = append(out, explicit[j])
				j++
			}
			continue
		}
		v := m.Content[i+1]
		for _, src := range l.mergeSources(v, ptr) {
			for _, e := range l.mergeEntries(src, v, ptr) {
				if !have[e.Key] {
					have[e.Key] = true
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// mergeSources returns the mappings named by the value of a merge key: one
// mapping or an array of mappings.
func (l *Reader) mergeSources(v *yaml.Node, ptr string) []*yaml.Node {
	d := Deref(v)
	switch d.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{d}
	case yaml.SequenceNode:
		srcs := make([]*yaml.Node, 0, len(d.Content))
		for _, item := range d.Content {
			if di := Deref(item); di.Kind == yaml.MappingNode {
				srcs = append(srcs, di)
			} else {
				l.C.Add(item, ptr, "merge key << expects objects, found "+Describe(di), "")
			}
		}
		return srcs
	}
	l.C.Add(v, ptr, "merge key << expects an object or an array of objects, found "+Describe(d), "")
	return nil
}

// mergeEntries returns the entries of a merge source, computed once per
// source so that its errors are reported once and repeated merges cost
// nothing; a source that merges itself is an error, reported at the value
// of the merge key (at).
func (l *Reader) mergeEntries(src, at *yaml.Node, ptr string) []Entry {
	if es, ok := l.merged[src]; ok {
		return es
	}
	if l.expanding[src] {
		l.C.Add(at, ptr, "merge key << makes an object include itself", "")
		return nil
	}
	l.expanding[src] = true
	es := l.Entries(src, ptr)
	delete(l.expanding, src)
	l.merged[src] = es
	return es
}

// HasKey reports whether mapping m has a string key k, without checking
// anything else.
func HasKey(m *yaml.Node, k string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kd := Deref(m.Content[i]); kd.Kind == yaml.ScalarNode && kd.Value == k {
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

// Enter starts reading node n in a recursive reader. It returns false,
// after reporting it, when n is an alias to a value being read (the value
// would contain itself) or when the file has followed too many aliases.
// Every successful enter is paired with leave.
func (l *Reader) Enter(n *yaml.Node, ptr string) bool {
	d := Deref(n)
	if n.Kind == yaml.AliasNode {
		l.aliasFollows++
		if l.aliasFollows > maxAliasFollows {
			if l.aliasFollows == maxAliasFollows+1 {
				l.C.Add(n, ptr, fmt.Sprintf("aliases expand to more than %d nested values", maxAliasFollows),
					"check for aliases of aliases that multiply")
			}
			return false
		}
	}
	if l.reading[d] {
		l.C.Add(n, ptr, "alias *"+n.Value+" makes a value contain itself", "")
		return false
	}
	l.reading[d] = true
	return true
}

// Leave ends the reading of n started by enter.
func (l *Reader) Leave(n *yaml.Node) { delete(l.reading, Deref(n)) }
