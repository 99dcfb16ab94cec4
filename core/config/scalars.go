package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/internal/suggest"
)

// stringOf returns the value of d (dereferenced) when its JSON form is a
// string: a YAML string, a timestamp (kept as written) or !!binary data
// (its base64 text). Other scalars (numbers, booleans, null) are not
// strings, as in the JSON Schema.
func stringOf(d *yaml.Node) (string, bool) {
	if d.Kind != yaml.ScalarNode {
		return "", false
	}
	switch d.ShortTag() {
	case tagStr, tagTimestamp:
		return d.Value, true
	case tagBinary:
		return strings.Join(strings.Fields(d.Value), ""), true
	}
	return "", false
}

// str reads a string value; what names the expected value for the message
// ("the test name").
func (l *loader) str(n *yaml.Node, ptr, what string) (string, bool) {
	d := deref(n)
	if s, ok := stringOf(d); ok {
		return s, true
	}
	l.c.add(n, ptr, fmt.Sprintf("expected %s (a string), found %s", what, describe(d)), quoteHint(d))
	return "", false
}

// nonEmptyStr reads a string value that must not be empty.
func (l *loader) nonEmptyStr(n *yaml.Node, ptr, what string) (string, bool) {
	s, ok := l.str(n, ptr, what)
	if ok && s == "" {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (a non-empty string), found an empty string", what), "")
		return "", false
	}
	return s, ok
}

// quoteHint suggests quoting a scalar that YAML did not read as a string.
func quoteHint(d *yaml.Node) string {
	if d.Kind != yaml.ScalarNode || d.ShortTag() == tagNull {
		return ""
	}
	return fmt.Sprintf("quote it to make it a string: %q", d.Value)
}

// stringList reads an array of strings; nonEmpty requires every string to
// be non-empty.
func (l *loader) stringList(n *yaml.Node, ptr, what string, nonEmpty bool) ([]string, bool) {
	d := deref(n)
	if d.Kind != yaml.SequenceNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an array of strings), found %s", what, describe(d)), "")
		return nil, false
	}
	out := make([]string, 0, len(d.Content))
	ok := true
	for i, item := range d.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		var s string
		var good bool
		if nonEmpty {
			s, good = l.nonEmptyStr(item, ip, "an element of "+what)
		} else {
			s, good = l.str(item, ip, "an element of "+what)
		}
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// stringMap reads an object whose values are strings.
func (l *loader) stringMap(n *yaml.Node, ptr, what string) (map[string]string, bool) {
	d := deref(n)
	if d.Kind != yaml.MappingNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an object of strings), found %s", what, describe(d)), "")
		return nil, false
	}
	es := l.entries(d, ptr)
	out := make(map[string]string, len(es))
	ok := true
	for _, e := range es {
		s, good := l.str(e.value, child(ptr, e.key), "the value of "+e.key)
		ok = ok && good
		out[e.key] = s
	}
	return out, ok
}

// boolean reads a true/false value.
func (l *loader) boolean(n *yaml.Node, ptr, what string) (bool, bool) {
	d := deref(n)
	if d.Kind == yaml.ScalarNode && d.ShortTag() == tagBool {
		switch strings.ToLower(d.Value) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	hint := ""
	if s, ok := stringOf(d); ok && (s == "true" || s == "false") {
		hint = "write it without quotes: " + s
	}
	l.c.add(n, ptr, fmt.Sprintf("expected %s (true or false), found %s", what, describe(d)), hint)
	return false, false
}

// enum reads a string that must be one of values.
func (l *loader) enum(n *yaml.Node, ptr, what string, values ...string) (string, bool) {
	s, ok := l.str(n, ptr, what)
	if !ok {
		return "", false
	}
	if slices.Contains(values, s) {
		return s, true
	}
	hint := "one of: " + strings.Join(values, ", ")
	if g := suggest.Closest(s, values); g != "" {
		hint = fmt.Sprintf("did you mean %q? (%s)", g, hint)
	}
	l.c.add(n, ptr, fmt.Sprintf("unknown %s %s", what, strconv.Quote(s)), hint)
	return "", false
}

// seq returns the items of an array; what names it for the message.
func (l *loader) seq(n *yaml.Node, ptr, what string) ([]*yaml.Node, bool) {
	if l.lazy[n] != nil {
		// A cut block is read with eachItem only; any other reader makes
		// the file load again, parsed whole (split.go).
		l.splitFailed = true
		return nil, true
	}
	d := deref(n)
	if d.Kind != yaml.SequenceNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an array), found %s", what, describe(d)), "")
		return nil, false
	}
	return d.Content, true
}

// nonEmptySeq returns the items of an array that must have at least one.
func (l *loader) nonEmptySeq(n *yaml.Node, ptr, what string) ([]*yaml.Node, bool) {
	items, ok := l.seq(n, ptr, what)
	if ok && len(items) == 0 {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an array) with at least one element, found an empty array", what), "")
		return nil, false
	}
	return items, ok
}

// mapping returns the entries of an object whose keys are names (servers,
// providers, variables...); what names it for the message.
func (l *loader) mapping(n *yaml.Node, ptr, what string) ([]entry, bool) {
	d := deref(n)
	if d.Kind != yaml.MappingNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an object), found %s", what, describe(d)), "")
		return nil, false
	}
	return l.entries(d, ptr), true
}

// isNull reports whether n (dereferenced) is ~ or null.
func isNull(n *yaml.Node) bool {
	d := deref(n)
	return d.Kind == yaml.ScalarNode && d.ShortTag() == tagNull
}

// index returns the pointer of item i of the array at ptr.
func index(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }
