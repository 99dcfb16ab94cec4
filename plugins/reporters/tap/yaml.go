package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
)

// The YAML diagnostic blocks are written by hand rather than with a YAML
// library: the go.mod has none, and the subset needed is small. Strings are
// always double-quoted (or, for multi-line prose, literal blocks with an
// explicit indentation indicator), so no value can be read back as a
// different type or break out of its block, whatever a server sent.

// Limits on untrusted values inside a diagnostic block.
const (
	// maxDepth is the nesting depth rendered as YAML; deeper values are
	// shown as one line of JSON.
	maxDepth = 8
	// maxValueBytes is the largest raw JSON value decoded; larger ones are
	// shown as a string holding their prefix.
	maxValueBytes = 64 << 10
	// maxStringRunes caps one string.
	maxStringRunes = 4000
)

// kv is one entry of a mapping, kept in the order it is written.
type kv struct {
	key string
	val any
}

// prose is text meant to be read as lines (a diff, a stderr tail); it is
// written as a literal block when it spans lines.
type prose string

// yamlBlock returns the TAP 14 diagnostic block for pairs: the YAML
// mapping indented two spaces between "  ---" and "  ...".
func yamlBlock(pairs []kv) string {
	var b strings.Builder
	b.WriteString("  ---\n")
	writePairs(&b, 2, pairs, 0, false)
	b.WriteString("  ...\n")
	return b.String()
}

// writePairs writes a block mapping whose keys sit at column ind. When
// inline is set the first key follows a sequence dash already written.
func writePairs(b *strings.Builder, ind int, pairs []kv, depth int, inline bool) {
	for i, p := range pairs {
		if i > 0 || !inline {
			b.WriteString(strings.Repeat(" ", ind))
		}
		b.WriteString(yamlKey(p.key) + ":")
		writeValue(b, ind, p.val, depth+1)
	}
}

// writeValue writes the value of a key or sequence dash at column ind,
// starting right after the ":" or "-".
func writeValue(b *strings.Builder, ind int, v any, depth int) {
	if raw, ok := v.(json.RawMessage); ok {
		v = decodeJSON(raw)
	}
	if m, ok := v.(map[string]any); ok {
		v = sortedPairs(m)
	}
	if depth > maxDepth {
		if _, nested := v.([]kv); nested {
			v = compactJSON(v)
		} else if _, nested := v.([]any); nested {
			v = compactJSON(v)
		}
	}
	switch v := v.(type) {
	case []kv:
		if len(v) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writePairs(b, ind+2, v, depth, false)
	case []any:
		if len(v) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		for _, item := range v {
			b.WriteString(strings.Repeat(" ", ind+2) + "-")
			if m, ok := item.(map[string]any); ok {
				item = sortedPairs(m)
			}
			// A mapping item starts on the dash line, the usual style.
			if pairs, ok := item.([]kv); ok && len(pairs) > 0 && depth < maxDepth {
				b.WriteString(" ")
				writePairs(b, ind+4, pairs, depth+1, true)
				continue
			}
			writeValue(b, ind+2, item, depth+1)
		}
	case prose:
		writeProse(b, ind, string(v))
	default:
		b.WriteString(" " + yamlScalar(v) + "\n")
	}
}

// writeProse writes multi-line text as a literal block whose content sits
// two columns right of its key; the explicit indicator (|2-) keeps lines
// that begin with spaces, such as diff context lines, intact.
func writeProse(b *strings.Builder, ind int, s string) {
	s = strings.TrimRight(cleanText(s), "\n")
	if !strings.Contains(s, "\n") || strings.IndexFunc(s, needsEscape) >= 0 {
		b.WriteString(" " + quote(s) + "\n")
		return
	}
	pad := strings.Repeat(" ", ind+2)
	b.WriteString(" |2-\n")
	for _, line := range strings.Split(s, "\n") {
		// Blank lines keep the padding so a TAP parser still sees them
		// as part of the indented block.
		b.WriteString(pad + line + "\n")
	}
}

// yamlScalar renders a scalar. Anything unexpected is shown as a string.
func yamlScalar(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		// Decoded JSON numbers are valid YAML numbers as written.
		return v.String()
	case string:
		if isPlainWord(v) {
			return v
		}
		return quote(cleanText(v))
	}
	return quote(cleanText(compactJSON(v)))
}

// plainKey is a key that reads as the same string unquoted in YAML 1.1
// and 1.2.
var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// plainWord is a string value that reads as the same string unquoted:
// it starts with a letter (so it is never a number) and holds no
// character YAML gives a meaning to in a plain scalar.
var plainWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_./@-]*$`)

// yamlKey quotes keys that could be misread.
func yamlKey(k string) string {
	if plainKey.MatchString(k) && !reservedWord(k) {
		return k
	}
	return quote(cleanText(k))
}

// isPlainWord reports a string value safe to write unquoted, which keeps
// the common values (statuses, matcher names, ids) easy to read.
func isPlainWord(s string) bool {
	return len(s) <= 80 && plainWord.MatchString(s) && !reservedWord(s)
}

// reservedWord reports the words YAML 1.1 or 1.2 read as booleans or null.
func reservedWord(s string) bool {
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n":
		return true
	}
	return false
}

// cleanText strips escape sequences and control characters (keeping
// newlines and tabs, which quoting escapes) and caps the length.
func cleanText(s string) string {
	return textsafe.Truncate(textsafe.Clean(s), maxStringRunes)
}

// quote writes s as a YAML double-quoted scalar, escaping what YAML does
// not allow unescaped there.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case needsEscape(r):
			if r > 0xffff {
				b.WriteString(`\U` + leftPad(strconv.FormatInt(int64(r), 16), 8))
			} else {
				b.WriteString(`\u` + leftPad(strconv.FormatInt(int64(r), 16), 4))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsEscape reports runes YAML does not allow as written: those outside
// its printable set, and the byte order mark.
func needsEscape(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r >= 0xd800 && r <= 0xdfff, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return true
	}
	return false
}

func leftPad(s string, n int) string {
	return strings.Repeat("0", max(n-len(s), 0)) + s
}

// decodeJSON turns a raw JSON value into plain Go values, keeping numbers
// exact. Values too large or not JSON become strings.
func decodeJSON(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxValueBytes {
		return string(raw[:maxValueBytes]) + "… (+" + strconv.Itoa(len(raw)-maxValueBytes) + " bytes)"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return v
}

// sortedPairs orders an object's keys so output is deterministic.
func sortedPairs(m map[string]any) []kv {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]kv, len(keys))
	for i, k := range keys {
		out[i] = kv{k, m[k]}
	}
	return out
}

// compactJSON renders a value as one line of JSON.
func compactJSON(v any) string {
	if pairs, ok := v.([]kv); ok {
		m := make(map[string]any, len(pairs))
		for _, p := range pairs {
			m[p.key] = p.val
		}
		v = m
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unrenderable value)"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
