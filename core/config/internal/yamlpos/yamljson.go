package yamlpos

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxJSONSize bounds the JSON of one converted value, so that an alias bomb
// (anchors that expand exponentially) fails instead of exhausting memory.
const maxJSONSize = 16 << 20

// loc is the JSON pointer of a value being converted, kept as its parent's
// pointer plus one step so that scalars, the bulk of any document, never
// build a pointer string unless they are in error.
type loc struct {
	parent string
	key    string
	idx    int // array index, or locKey or locRoot
}

const (
	locKey  = -1 // the step is key
	locRoot = -2 // no step: parent is the pointer of the value
)

func (p loc) String() string {
	switch p.idx {
	case locRoot:
		return p.parent
	case locKey:
		return Child(p.parent, p.key)
	}
	return p.parent + "/" + strconv.Itoa(p.idx)
}

// ToJSON converts the value n (args, a matcher argument) from YAML to JSON.
// ptr is its JSON pointer. Integers keep their literal (no float64
// rounding), timestamps stay strings, !!binary becomes its base64 text,
// aliases and merge keys are resolved, and object keys must be strings.
// It returns nil after reporting the problems it found.
func (l *Reader) ToJSON(n *yaml.Node, ptr string) json.RawMessage {
	l.jfailed = false
	buf := l.appendJSON(l.buf[:0], n, loc{parent: ptr, idx: locRoot})
	l.buf = buf[:0]
	if l.jfailed {
		return nil
	}
	return bytes.Clone(buf)
}

// jerr reports a conversion error at node n.
func (l *Reader) jerr(n *yaml.Node, p loc, msg, hint string) {
	l.jfailed = true
	l.C.Add(n, p.String(), msg, hint)
}

// appendJSON appends the JSON form of n. An anchored node (reached
// directly or through an alias) is converted once; its JSON is reused for
// every alias to it.
func (l *Reader) appendJSON(buf []byte, n *yaml.Node, p loc) []byte {
	if len(buf) > maxJSONSize {
		if !l.jfailed {
			l.jerr(n, p, fmt.Sprintf("value expands to more than %d MiB of JSON", maxJSONSize>>20),
				"check for aliases that expand recursively")
		}
		return buf
	}
	switch {
	case n.Kind == yaml.AliasNode:
		return l.appendShared(buf, Deref(n), n, p)
	case n.Anchor != "":
		return l.appendShared(buf, n, n, p)
	}
	return l.appendValue(buf, n, p)
}

// appendShared converts anchored node t, reached through node at (an
// alias, or t itself), once, and detects a value that contains itself.
func (l *Reader) appendShared(buf []byte, t, at *yaml.Node, p loc) []byte {
	if js, ok := l.jsonMemo[t]; ok {
		if js == nil { // failed before; already reported
			l.jfailed = true
			return buf
		}
		return append(buf, js...)
	}
	if l.jsonActive[t] {
		l.jerr(at, p, "alias *"+at.Value+" makes a value contain itself", "")
		return buf
	}
	l.jsonActive[t] = true
	outer := l.jfailed
	l.jfailed = false
	start := len(buf)
	buf = l.appendValue(buf, t, p)
	delete(l.jsonActive, t)
	if l.jfailed {
		l.jsonMemo[t] = nil
		buf = buf[:start]
	} else {
		l.jsonMemo[t] = bytes.Clone(buf[start:])
	}
	l.jfailed = l.jfailed || outer
	return buf
}

// appendValue appends the JSON form of n, which is not an alias.
func (l *Reader) appendValue(buf []byte, n *yaml.Node, p loc) []byte {
	switch n.Kind {
	case yaml.MappingNode:
		if tag := n.ShortTag(); tag != tagMap {
			l.jerr(n, p, "unsupported YAML tag "+n.Tag+" on an object", "")
			return buf
		}
		ptr := p.String()
		nerr := len(l.C.Errs)
		es := l.Entries(n, ptr)
		if len(l.C.Errs) > nerr { // bad or repeated keys
			l.jfailed = true
		}
		buf = append(buf, '{')
		for i, e := range es {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, e.Key)
			buf = append(buf, ':')
			buf = l.appendJSON(buf, e.Value, loc{parent: ptr, key: e.Key, idx: locKey})
		}
		return append(buf, '}')
	case yaml.SequenceNode:
		if tag := n.ShortTag(); tag != tagSeq {
			l.jerr(n, p, "unsupported YAML tag "+n.Tag+" on an array", "")
			return buf
		}
		ptr := p.String()
		buf = append(buf, '[')
		for i, item := range n.Content {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = l.appendJSON(buf, item, loc{parent: ptr, idx: i})
		}
		return append(buf, ']')
	case yaml.ScalarNode:
		out, msg, hint := appendScalar(buf, n)
		if msg != "" {
			l.jerr(n, p, msg, hint)
			return buf
		}
		return out
	}
	l.jerr(n, p, "unexpected YAML node", "")
	return buf
}

// appendScalar appends the JSON form of scalar n, or returns an error
// message (and hint) when it has none.
func appendScalar(buf []byte, n *yaml.Node) (out []byte, msg, hint string) {
	v := n.Value
	switch n.ShortTag() {
	case TagStr, tagTimestamp:
		return appendJSONString(buf, v), "", ""
	case TagNull:
		return append(buf, "null"...), "", ""
	case TagBool:
		switch strings.ToLower(v) {
		case "true":
			return append(buf, "true"...), "", ""
		case "false":
			return append(buf, "false"...), "", ""
		}
		return buf, "invalid boolean " + QuoteShort(v), "use true or false"
	case TagInt:
		s, ok := jsonInt(v)
		if !ok {
			return buf, "invalid integer " + QuoteShort(v), ""
		}
		return append(buf, s...), "", ""
	case TagFloat:
		s, msg := jsonFloat(v)
		if msg != "" {
			return buf, msg, ""
		}
		return append(buf, s...), "", ""
	case tagBinary:
		b64 := strings.Join(strings.Fields(v), "")
		if _, err := base64.StdEncoding.DecodeString(b64); err != nil {
			return buf, "invalid !!binary data: " + err.Error(), ""
		}
		return appendJSONString(buf, b64), "", ""
	}
	return buf, "unsupported YAML tag " + n.Tag,
		"only the core tags (!!str, !!int, !!float, !!bool, !!null, !!binary, !!timestamp) have a JSON form"
}

// jsonInt returns the decimal JSON form of a YAML integer literal, which
// may be of any size and use the forms yaml.v3 accepts: a sign,
// underscores, 0x, 0o, 0b and 0-prefixed (YAML 1.1) octal.
func jsonInt(lit string) (string, bool) {
	if isJSONNumber(lit) && !strings.ContainsAny(lit, ".eE") {
		return lit, true
	}
	s := strings.ReplaceAll(lit, "_", "")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, s = 16, s[2:]
		case 'o', 'O':
			base, s = 8, s[2:]
		case 'b', 'B':
			base, s = 2, s[2:]
		default:
			base = 8
		}
	}
	if s == "" || s[0] == '+' || s[0] == '-' {
		return "", false
	}
	var z big.Int
	if _, ok := z.SetString(s, base); !ok {
		return "", false
	}
	if neg {
		z.Neg(&z)
	}
	return z.String(), true
}

// jsonFloat returns the JSON form of a YAML float literal, keeping the
// digits as written; .inf and .nan have no JSON form.
func jsonFloat(lit string) (string, string) {
	if isJSONNumber(lit) {
		return lit, ""
	}
	switch strings.ToLower(strings.TrimLeft(lit, "+-")) {
	case ".inf", ".nan":
		return "", lit + " has no JSON form"
	}
	s := strings.TrimPrefix(strings.ReplaceAll(lit, "_", ""), "+")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	whole, frac, dot := strings.Cut(mant, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	out := whole
	if dot {
		if frac == "" {
			frac = "0"
		}
		out += "." + frac
	}
	out += exp
	if neg {
		out = "-" + out
	}
	if isJSONNumber(out) {
		return out, ""
	}
	return "", "invalid number " + QuoteShort(lit)
}

// isJSONNumber reports whether s is a number in JSON syntax.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// appendJSONString appends s as a JSON string. yaml.v3 only produces valid
// UTF-8; an invalid byte would still be replaced by U+FFFD.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, s[start:i]...)
				buf = append(buf, `\ufffd`...)
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
