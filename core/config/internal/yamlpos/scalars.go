package yamlpos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/internal/suggest"
)

// StringOf returns the value of d (dereferenced) when its JSON form is a
// string: a YAML string, a timestamp (kept as written) or !!binary data
// (its base64 text). Other scalars (numbers, booleans, null) are not
// strings, as in the JSON Schema.
func StringOf(d *yaml.Node) (string, bool) {
	if d.Kind != yaml.ScalarNode {
		return "", false
	}
	switch d.ShortTag() {
	case TagStr, tagTimestamp:
		return d.Value, true
	case tagBinary:
		return strings.Join(strings.Fields(d.Value), ""), true
	}
	return "", false
}

// Str reads a string value; what names the expected value for the message
// ("the test name").
func (l *Reader) Str(n *yaml.Node, ptr, what string) (string, bool) {
	d := Deref(n)
	if s, ok := StringOf(d); ok {
		return s, true
	}
	l.C.Add(n, ptr, fmt.Sprintf("expected %s (a string), found %s", what, Describe(d)), quoteHint(d))
	return "", false
}

// NonEmptyStr reads a string value that must not be empty.
func (l *Reader) NonEmptyStr(n *yaml.Node, ptr, what string) (string, bool) {
	s, ok := l.Str(n, ptr, what)
	if ok && s == "" {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (a non-empty string), found an empty string", what), "")
		return "", false
	}
	return s, ok
}

// quoteHint suggests quoting a scalar that YAML did not read as a string.
func quoteHint(d *yaml.Node) string {
	if d.Kind != yaml.ScalarNode || d.ShortTag() == TagNull {
		return ""
	}
	return fmt.Sprintf("quote it to make it a string: %q", d.Value)
}

// StringList reads an array of strings; nonEmpty requires every string to
// be non-empty.
func (l *Reader) StringList(n *yaml.Node, ptr, what string, nonEmpty bool) ([]string, bool) {
	d := Deref(n)
	if d.Kind != yaml.SequenceNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an array of strings), found %s", what, Describe(d)), "")
		return nil, false
	}
	out := make([]string, 0, len(d.Content))
	ok := true
	for i, item := range d.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		var s string
		var good bool
		if nonEmpty {
			s, good = l.NonEmptyStr(item, ip, "an element of "+what)
		} else {
			s, good = l.Str(item, ip, "an element of "+what)
		}
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// StringMap reads an object whose values are strings.
func (l *Reader) StringMap(n *yaml.Node, ptr, what string) (map[string]string, bool) {
	d := Deref(n)
	if d.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an object of strings), found %s", what, Describe(d)), "")
		return nil, false
	}
	es := l.Entries(d, ptr)
	out := make(map[string]string, len(es))
	ok := true
	for _, e := range es {
		s, good := l.Str(e.Value, Child(ptr, e.Key), "the value of "+e.Key)
		ok = ok && good
		out[e.Key] = s
	}
	return out, ok
}

// Boolean reads a true/false value.
func (l *Reader) Boolean(n *yaml.Node, ptr, what string) (bool, bool) {
	d := Deref(n)
	if d.Kind == yaml.ScalarNode && d.ShortTag() == TagBool {
		switch strings.ToLower(d.Value) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	hint := ""
	if s, ok := StringOf(d); ok && (s == "true" || s == "false") {
		hint = "write it without quotes: " + s
	}
	l.C.Add(n, ptr, fmt.Sprintf("expected %s (true or false), found %s", what, Describe(d)), hint)
	return false, false
}

// Enum reads a string that must be one of values.
func (l *Reader) Enum(n *yaml.Node, ptr, what string, values ...string) (string, bool) {
	s, ok := l.Str(n, ptr, what)
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
	l.C.Add(n, ptr, fmt.Sprintf("unknown %s %s", what, strconv.Quote(s)), hint)
	return "", false
}

// Mapping returns the entries of an object whose keys are names (servers,
// providers, variables...); what names it for the message.
func (l *Reader) Mapping(n *yaml.Node, ptr, what string) ([]Entry, bool) {
	d := Deref(n)
	if d.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an object), found %s", what, Describe(d)), "")
		return nil, false
	}
	return l.Entries(d, ptr), true
}

// IsNull reports whether n (dereferenced) is ~ or null.
func IsNull(n *yaml.Node) bool {
	d := Deref(n)
	return d.Kind == yaml.ScalarNode && d.ShortTag() == TagNull
}

// Index returns the pointer of item i of the array at ptr.
func Index(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }
