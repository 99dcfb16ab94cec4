package config

import (
	"bytes"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// A quick reader for the plainest groups of items.
//
// yaml.v3 spends most of a large suite's load in its scanner and in
// allocating nodes one by one (a 50 MB suite: about 6 s of CPU and 1.4 GB
// of garbage). Most items of a large suite are written in a small part of
// YAML: block mappings and sequences, plain scalars of a few kinds, quoted
// strings without escapes, and one-line flow collections. fastItems reads
// exactly that subset into the nodes yaml.v3 would build (kinds, tags,
// styles, values, lines and columns), taking the nodes from a few large
// slabs; anything outside it (comments, tabs, anchors, tags, block
// scalars, escapes, multi-line scalars, numbers other than plain integers,
// non-ASCII text) makes it give up on the group, which yaml.v3 then reads
// as before. Giving up is always safe; accepting is only allowed where the
// result is certain. TestFastItemsMatchYAML and FuzzFastItemsMatchYAML
// hold it to yaml.v3's own result.

// The tags of collections, as yaml.v3 writes them.
const (
	tagMap = "!!map"
	tagSeq = "!!seq"
)

// fastLine is one non-blank line of a group: its text without the
// indentation and trailing spaces, its indentation and its line number.
type fastLine struct {
	text   []byte
	indent int
	line   int
}

// fastReader reads one group.
type fastReader struct {
	lines []fastLine
	i     int // the line being read
	// col is where reading resumes in lines[i]: an index into its text
	// (after "- " of an item whose content starts on the same line).
	col  int
	slab []yaml.Node
	// slabs are every slab this reader has, reused from the first for
	// each group it reads; next is the index of the one after slab.
	slabs [][]yaml.Node
	next  int
	// stack holds the children of the collections being read; each
	// collection's are copied into ptrs, a slab of exact-length slices,
	// when it ends (no slice grows by doubling).
	stack  []*yaml.Node
	ptrs   []*yaml.Node
	pslabs [][]*yaml.Node
	pnext  int
	intern map[string]string
	bad    bool
}

// fastReaders recycles readers with their slabs: a 50 MB suite's nodes
// come to about 1 GB, which would otherwise all be garbage to collect.
var fastReaders = sync.Pool{New: func() any { return &fastReader{intern: make(map[string]string, 64)} }}

// fastItems reads the items chunks[i:j] of s, or returns nil when their
// text is not in the subset fastItems handles. The nodes live in the
// slabs of the returned reader until its release.
func fastItems(s *lazySeq, i, j int) ([]*yaml.Node, *fastReader) {
	first, last := s.chunks[i], s.chunks[j-1]
	text := s.data[first.start:last.end]
	for _, c := range text {
		// Outside printable ASCII, and the characters that start comments,
		// tabs, escapes and indicators the subset leaves out.
		if c != '\n' && (c < 0x20 || c > 0x7e) || c == '#' || c == '\\' || c == '&' || c == '*' || c == '!' || c == '|' || c == '>' || c == '%' || c == '@' || c == '`' || c == '?' {
			return nil, nil
		}
	}
	r := fastReaders.Get().(*fastReader)
	r.lines = splitFastLines(r.lines[:0], text, first.line)
	if len(r.lines) == 0 {
		r.release()
		return nil, nil
	}
	items := make([]*yaml.Node, 0, j-i)
	ind := r.lines[0].indent
	for r.i < len(r.lines) && !r.bad {
		ln := r.lines[r.i]
		if ln.indent != ind || !isDash(ln.text, 0) {
			r.release()
			return nil, nil
		}
		items = append(items, r.item(ind))
	}
	if r.bad || len(items) != j-i {
		r.release()
		return nil, nil
	}
	return items, r
}

// release makes r and its slabs available to read another group: the
// nodes it made must no longer be used. A nil r is ignored.
func (r *fastReader) release() {
	if r == nil {
		return
	}
	r.i, r.col, r.bad = 0, 0, false
	r.slab, r.next = nil, 0
	r.ptrs, r.pnext = nil, 0
	r.stack = r.stack[:0]
	clear(r.lines) // they point into the file
	r.lines = r.lines[:0]
	// intern stays: it stops growing at its bound, and the next group
	// most likely repeats the same keys and values.
	fastReaders.Put(r)
}

// splitFastLines appends the non-blank lines of text to out; line is the
// number of its first line.
func splitFastLines(out []fastLine, text []byte, line int) []fastLine {
	if cap(out) == 0 {
		out = make([]fastLine, 0, bytes.Count(text, []byte{'\n'})+1)
	}
	for start := 0; start < len(text); line++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		l := text[start:end]
		start = end + 1
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		t := l[ind:]
		for len(t) > 0 && t[len(t)-1] == ' ' {
			t = t[:len(t)-1]
		}
		if len(t) > 0 {
			out = append(out, fastLine{text: t, indent: ind, line: line})
		}
	}
	return out
}

// isDash reports whether t[at:] starts a block sequence item with content
// on the same line ("- x"); a bare "-" is left to yaml.v3.
func isDash(t []byte, at int) bool {
	return at+1 < len(t) && t[at] == '-' && t[at+1] == ' '
}

// node returns a fresh node from the slab.
func (r *fastReader) node(kind yaml.Kind, tag string, line, col int) *yaml.Node {
	if len(r.slab) == cap(r.slab) {
		if r.next == len(r.slabs) {
			r.slabs = append(r.slabs, make([]yaml.Node, 0, 1024))
		}
		r.slab = r.slabs[r.next][:0]
		r.next++
	}
	r.slab = append(r.slab, yaml.Node{Kind: kind, Tag: tag, Line: line, Column: col})
	return &r.slab[len(r.slab)-1]
}

// content returns a copy of the children stack[base:] for a collection
// and drops them from the stack. The copy's capacity is its length, so
// that an append to it never writes into its neighbour.
func (r *fastReader) content(base int) []*yaml.Node {
	kids := r.stack[base:]
	n := len(kids)
	r.stack = r.stack[:base]
	if n == 0 {
		return nil
	}
	if cap(r.ptrs)-len(r.ptrs) < n {
		if r.pnext == len(r.pslabs) || cap(r.pslabs[r.pnext]) < n {
			r.pslabs = append(r.pslabs[:r.pnext], make([]*yaml.Node, 0, max(4096, n)))
		}
		r.ptrs = r.pslabs[r.pnext][:0]
		r.pnext++
	}
	at := len(r.ptrs)
	r.ptrs = append(r.ptrs, kids...)
	return r.ptrs[at : at+n : at+n]
}

// str returns b as a string, shared with earlier equal strings of the
// group while the table is small (keys and repeated values).
func (r *fastReader) str(b []byte) string {
	if s, ok := r.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.intern) < 1024 && len(s) <= 64 {
		r.intern[s] = s
	}
	return s
}

// fail marks the group as not readable here and returns a placeholder.
func (r *fastReader) fail() *yaml.Node {
	r.bad = true
	return &yaml.Node{}
}

// item reads the block sequence item at line r.i, whose dash is at
// indentation ind.
func (r *fastReader) item(ind int) *yaml.Node {
	ln := r.lines[r.i]
	at := 2
	for at < len(ln.text) && ln.text[at] == ' ' {
		at++
	}
	r.col = at
	if isDash(ln.text, at) {
		return r.fail() // nested "- -": left to yaml.v3
	}
	if keyEnd(ln.text, at) > 0 {
		return r.mapping(ln.indent + at)
	}
	v := r.inline(ind)
	return v
}

// seq reads the block sequence whose items are at indentation ind.
func (r *fastReader) seq(ind int) *yaml.Node {
	ln := r.lines[r.i]
	n := r.node(yaml.SequenceNode, tagSeq, ln.line, ind+1)
	base := len(r.stack)
	defer func() { n.Content = r.content(base) }()
	for r.i < len(r.lines) && !r.bad {
		ln := r.lines[r.i]
		if ln.indent < ind || ln.indent == ind && !isDash(ln.text, 0) {
			break
		}
		if ln.indent > ind {
			return r.fail()
		}
		r.stack = append(r.stack, r.item(ind))
	}
	return n
}

// keyEnd returns the index of the colon of a simple key at t[at:]
// ("name: ..." or "name:" at the end of the line), or 0 when there is
// none.
func keyEnd(t []byte, at int) int {
	k := at
	for k < len(t) && k-at < 128 && (isKeyChar(t[k]) || k > at && (t[k] == '-' || t[k] == '.')) {
		k++
	}
	if k == at || k >= len(t) || t[k] != ':' || k+1 < len(t) && t[k+1] != ' ' {
		return 0
	}
	return k
}

// isKeyChar reports whether c may appear anywhere in a simple key.
func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// mapping reads the block mapping whose keys are at indentation ind; its
// first key starts at r.col of line r.i.
func (r *fastReader) mapping(ind int) *yaml.Node {
	ln := r.lines[r.i]
	n := r.node(yaml.MappingNode, tagMap, ln.line, ind+1)
	base := len(r.stack)
	defer func() { n.Content = r.content(base) }()
	for !r.bad {
		ln := r.lines[r.i]
		t := ln.text
		at := r.col
		k := keyEnd(t, at)
		if k == 0 {
			return r.fail()
		}
		key := r.plain(t[at:k], ln.line, ln.indent+at+1)
		rest := k + 1
		for rest < len(t) && t[rest] == ' ' {
			rest++
		}
		var v *yaml.Node
		if rest < len(t) {
			r.col = rest
			v = r.inline(ind)
		} else {
			// The value is on the next lines: a nested block.
			r.i++
			if r.i >= len(r.lines) {
				return r.fail() // a null value: left to yaml.v3
			}
			next := r.lines[r.i]
			r.col = 0
			switch {
			case next.indent > ind && isDash(next.text, 0), next.indent == ind && isDash(next.text, 0):
				v = r.seq(next.indent)
			case next.indent > ind && keyEnd(next.text, 0) > 0:
				v = r.mapping(next.indent)
			default:
				return r.fail()
			}
		}
		r.stack = append(r.stack, key, v)
		if r.bad || r.i >= len(r.lines) {
			break
		}
		next := r.lines[r.i]
		if next.indent < ind {
			break
		}
		if next.indent > ind {
			return r.fail()
		}
		r.col = 0
	}
	return n
}

// inline reads a value that fills the rest of line r.i from r.col (a
// scalar or a flow collection) and moves to the next line, which must not
// be indented past ind (that would continue the value).
func (r *fastReader) inline(ind int) *yaml.Node {
	ln := r.lines[r.i]
	t := ln.text
	at := r.col
	var v *yaml.Node
	switch t[at] {
	case '{', '[':
		end := 0
		v, end = r.flow(t, at, ln)
		if end != len(t) {
			return r.fail()
		}
	case '"', '\'':
		end := closingQuote(t, at)
		if end != len(t)-1 {
			return r.fail()
		}
		v = r.quoted(t, at, end, ln)
	default:
		if !plainOK(t[at:], false) {
			return r.fail()
		}
		v = r.plain(t[at:], ln.line, ln.indent+at+1)
	}
	r.i++
	r.col = 0
	if r.i < len(r.lines) && r.lines[r.i].indent > ind {
		return r.fail()
	}
	return v
}

// closingQuote returns the index of the quote that closes the one at
// t[at], or -1; a doubled single quote (an escape) is left to yaml.v3.
func closingQuote(t []byte, at int) int {
	q := t[at]
	for k := at + 1; k < len(t); k++ {
		if t[k] == q {
			if q == '\'' && k+1 < len(t) && t[k+1] == '\'' {
				return -1
			}
			return k
		}
	}
	return -1
}

// quoted makes the node of the quoted scalar t[at:end+1].
func (r *fastReader) quoted(t []byte, at, end int, ln fastLine) *yaml.Node {
	v := r.node(yaml.ScalarNode, yamlpos.TagStr, ln.line, ln.indent+at+1)
	v.Value = r.str(t[at+1 : end])
	if t[at] == '"' {
		v.Style = yaml.DoubleQuotedStyle
	} else {
		v.Style = yaml.SingleQuotedStyle
	}
	return v
}

// plainOK reports whether p is a whole plain scalar of the subset: it
// starts with a letter, a digit, '-', '_', '/' or '$', holds no quote,
// no ": " and, in a flow collection, no flow indicator and no colon, and
// does not end with ':'.
func plainOK(p []byte, flow bool) bool {
	if len(p) == 0 {
		return false
	}
	c := p[0]
	if !(isKeyChar(c) || c == '/' || c == '$' || c == '-' && len(p) > 1 && p[1] != ' ') {
		return false
	}
	for k, c := range p {
		switch c {
		case '"', '\'':
			return false
		case ':':
			// In a flow collection yaml.v3's reading of a colon depends
			// on what follows; left to it.
			if flow || k+1 == len(p) || p[k+1] == ' ' {
				return false
			}
		case ',', '[', ']', '{', '}':
			if flow {
				return false
			}
		}
	}
	return true
}

// plain makes the node of the plain scalar p, or fails when its tag is
// not certain.
func (r *fastReader) plain(p []byte, line, col int) *yaml.Node {
	tag, ok := plainTag(p)
	if !ok {
		return r.fail()
	}
	v := r.node(yaml.ScalarNode, tag, line, col)
	v.Value = r.str(p)
	return v
}

// plainTag returns the tag yaml.v3 resolves the plain scalar p to, or
// false when p is of a kind left to yaml.v3 (floats, timestamps, integers
// in other bases, the merge key).
func plainTag(p []byte) (string, bool) {
	switch string(p) {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return yamlpos.TagBool, true
	case "null", "Null", "NULL", "~":
		return yamlpos.TagNull, true
	}
	switch c := p[0]; {
	case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
		d := p
		if c == '-' {
			d = p[1:]
		}
		if len(d) == 0 || len(d) > 18 || len(d) > 1 && d[0] == '0' {
			return "", false
		}
		for _, c := range d {
			if c < '0' || c > '9' {
				return "", false
			}
		}
		return yamlpos.TagInt, true
	}
	return yamlpos.TagStr, true
}

// flow reads the one-line flow collection starting at t[at] and returns it
// with the index just past its end (trailing spaces skipped).
func (r *fastReader) flow(t []byte, at int, ln fastLine) (*yaml.Node, int) {
	open := t[at]
	kind, tag, closer := yaml.MappingNode, tagMap, byte('}')
	if open == '[' {
		kind, tag, closer = yaml.SequenceNode, tagSeq, ']'
	}
	n := r.node(kind, tag, ln.line, ln.indent+at+1)
	n.Style = yaml.FlowStyle
	base := len(r.stack)
	defer func() { n.Content = r.content(base) }()
	k := skipSpaces(t, at+1)
	if k < len(t) && t[k] == closer {
		return n, skipSpaces(t, k+1)
	}
	for !r.bad {
		if kind == yaml.MappingNode {
			e := keyEnd(t, k)
			if e == 0 || e+1 >= len(t) {
				r.bad = true
				break
			}
			r.stack = append(r.stack, r.plain(t[k:e], ln.line, ln.indent+k+1))
			k = skipSpaces(t, e+1)
		}
		var v *yaml.Node
		v, k = r.flowValue(t, k, ln)
		r.stack = append(r.stack, v)
		if k >= len(t) {
			r.bad = true
			break
		}
		if t[k] == closer {
			return n, skipSpaces(t, k+1)
		}
		if t[k] != ',' {
			r.bad = true
			break
		}
		k = skipSpaces(t, k+1)
		if k >= len(t) || t[k] == closer {
			r.bad = true // a trailing comma: left to yaml.v3
		}
	}
	return n, len(t) + 1
}

// flowValue reads one value of a flow collection at t[k] and returns it
// with the index of what follows it (spaces skipped).
func (r *fastReader) flowValue(t []byte, k int, ln fastLine) (*yaml.Node, int) {
	if k >= len(t) {
		return r.fail(), k
	}
	switch t[k] {
	case '{', '[':
		return r.flow(t, k, ln)
	case '"', '\'':
		end := closingQuote(t, k)
		if end < 0 {
			return r.fail(), k
		}
		return r.quoted(t, k, end, ln), skipSpaces(t, end+1)
	}
	e := k
	for e < len(t) && t[e] != ',' && t[e] != ']' && t[e] != '}' {
		e++
	}
	p := t[k:e]
	for len(p) > 0 && p[len(p)-1] == ' ' {
		p = p[:len(p)-1]
	}
	if !plainOK(p, true) {
		return r.fail(), e
	}
	return r.plain(p, ln.line, ln.indent+k+1), e
}

// skipSpaces returns the index of the first non-space at or after k.
func skipSpaces(t []byte, k int) int {
	for k < len(t) && t[k] == ' ' {
		k++
	}
	return k
}
