package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
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

// positiveInt reads an integer that must be at least 1. A float with no
// fractional part (5000.0) counts as an integer, as in JSON Schema.
func (l *loader) positiveInt(n *yaml.Node, ptr, what string) (int, bool) {
	d := deref(n)
	if lit, ok := integerLiteral(d); ok {
		v, err := strconv.Atoi(lit)
		if err != nil {
			l.c.add(n, ptr, fmt.Sprintf("%s %s is out of range", what, lit), "")
			return 0, false
		}
		if v >= 1 {
			return v, true
		}
	}
	l.c.add(n, ptr, fmt.Sprintf("expected %s (an integer ≥ 1), found %s", what, describe(d)), "")
	return 0, false
}

// integerLiteral returns the decimal form of scalar d when it is an
// integer: a YAML integer, or a float with no fractional part.
func integerLiteral(d *yaml.Node) (string, bool) {
	if d.Kind != yaml.ScalarNode {
		return "", false
	}
	switch d.ShortTag() {
	case tagInt:
		return jsonInt(d.Value)
	case tagFloat:
		f, err := strconv.ParseFloat(strings.ReplaceAll(d.Value, "_", ""), 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange), math.IsInf(f, 0), f != math.Trunc(f):
			return "", false
		case math.Abs(f) >= 1<<53:
			return d.Value, true // reported as out of range, as written
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
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
