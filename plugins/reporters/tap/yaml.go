package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
)

// The YAML diagnostic blocks are built as yaml.v3 node trees and written
// by its encoder, which quotes whatever could be misread (a string "true",
// "123" or "a: b") and escapes what YAML cannot hold as written. Strings
// that span lines or are long are literal block scalars, so a diff, a
// stderr tail or a large JSON value reads as text rather than as one
// quoted line full of escaped quotes.

// Limits on untrusted values inside a diagnostic block.
const (
	// maxDepth is the nesting depth rendered as YAML; deeper values are
	// shown as their JSON text.
	maxDepth = 8
	// maxValueBytes is the largest raw JSON value decoded; larger ones are
	// shown as their first bytes and a note of how many were left out.
	maxValueBytes = 64 << 10
	// maxStringRunes caps one string.
	maxStringRunes = 4000
	// blockRunes is the length from which a one-line string is written as
	// a block scalar rather than inline.
	blockRunes = 80
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
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	doc := mappingNode(pairs, 0)
	if err := enc.Encode(doc); err != nil {
		// The tree holds only scalars the encoder accepts; should it
		// refuse one anyway, the block says so rather than breaking TAP.
		buf.Reset()
		buf.WriteString("message: " + strconv.Quote("diagnostics could not be written: "+err.Error()) + "\n")
	}
	_ = enc.Close()
	var b strings.Builder
	b.WriteString("  ---\n")
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		// Every line, blank lines of a block scalar included, keeps the
		// two-space indentation, so a TAP parser sees one block.
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("  ...\n")
	return b.String()
}

// mappingNode builds a block mapping from ordered pairs.
func mappingNode(pairs []kv, depth int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, p := range pairs {
		n.Content = append(n.Content, keyNode(p.key), valueNode(p.val, depth+1))
	}
	return n
}

// valueNode builds the node of one value.
func valueNode(v any, depth int) *yaml.Node {
	if raw, ok := v.(json.RawMessage); ok {
		v = decodeJSON(raw)
	}
	if m, ok := v.(map[string]any); ok {
		v = sortedPairs(m)
	}
	if depth > maxDepth {
		switch v.(type) {
		case []kv, []any:
			return stringNode(compactJSON(v), false)
		}
	}
	switch v := v.(type) {
	case []kv:
		if len(v) == 0 {
			return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		}
		return mappingNode(v, depth)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if len(v) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, item := range v {
			n.Content = append(n.Content, valueNode(item, depth+1))
		}
		return n
	case prose:
		return stringNode(strings.TrimRight(cleanText(string(v)), "\n"), true)
	case string:
		return stringNode(cleanText(v), false)
	case oversized:
		return stringNode(string(v), true)
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}
	case float64:
		return numberNode(json.Number(strconv.FormatFloat(v, 'f', -1, 64)))
	case json.Number:
		return numberNode(v)
	}
	return stringNode(cleanText(compactJSON(v)), false)
}

// stringNode is a string scalar: a literal block when it spans lines or
// is long (always for prose that spans lines), else inline, quoted by the
// encoder when it would otherwise read as something else.
func stringNode(s string, text bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case !text && utf8.RuneCountInString(s) > blockRunes:
		n.Style = yaml.LiteralStyle
	}
	return n
}

// keyNode is a mapping key, always one inline line: failure fields come
// from plugins, so a key may be anything, and a key spanning lines would
// need YAML's complex-key syntax, which few readers expect.
func keyNode(k string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: textsafe.Truncate(textsafe.CleanLine(k), maxStringRunes)}
}

// numberNode writes a number as written: an integer as one, anything
// else (a fraction, an exponent) as a float; "12" from a float64 is the
// integer 12, which reads back as the same number.
func numberNode(v json.Number) *yaml.Node {
	if _, err := strconv.ParseInt(v.String(), 10, 64); err == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: v.String()}
	}
	if _, err := v.Float64(); err == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: v.String()}
	}
	// Too large for either: keep its digits as text.
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v.String()}
}

// cleanText strips escape sequences and control characters (keeping
// newlines and tabs) and caps the length.
func cleanText(s string) string {
	return textsafe.Truncate(textsafe.Clean(s), maxStringRunes)
}

// oversized is the text shown for a JSON value too large to decode: its
// first bytes, then a line saying how much was left out.
type oversized string

// decodeJSON turns a raw JSON value into plain Go values, keeping numbers
// exact. A value too large is shown as the start of its text and a note;
// one that is not JSON as a string.
func decodeJSON(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxValueBytes {
		head := cleanText(string(raw[:maxValueBytes]))
		return oversized(head + "\n… (" + strconv.Itoa(len(raw)-maxValueBytes) + " more bytes; the JSON report has the whole value)")
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
