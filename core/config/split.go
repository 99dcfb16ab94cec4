package config

import (
	"bytes"
	"runtime"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// Loading a large suite item by item.
//
// yaml.v3 builds the whole node tree of a document before returning it,
// and a node costs about twenty times the bytes of YAML it stands for: a
// 50 MB suite of 330,000 tests needed 1.2 GB of nodes at once. So a large
// file is split at the text level. The items of its top-level tools,
// resources and prompts blocks are cut out, and the rest of the file (with
// the cut lines left blank, so every line keeps its number) is parsed as
// usual. The walk of such a block then parses, interpolates and reads its
// items a group at a time, and a group's nodes are garbage as soon as its
// typed tests exist.
//
// The cut is only made where it is safe: a top-level key such as "tools:"
// at column 0 with nothing after it, followed by a block sequence whose items
// start with "- " at one indentation, and nothing else at that indentation
// or less until the next top-level key. Any other shape, and any group
// of items that does not parse on its own as exactly those items (an
// alias to an anchor in another group, a quoted string that runs across
// items),
// makes the loader start again and parse the file whole, so the result
// and the errors are always those of the whole parse.

// splitMinSize is the size from which a file is split; smaller files are
// parsed whole, where the node tree is small anyway. A variable so that
// tests can split small files.
var splitMinSize = 1 << 20

// splitKeys are the top-level blocks whose items are read one at a time.
var splitKeys = map[string]bool{"tools": true, "resources": true, "prompts": true}

// lazySeq is a top-level block sequence whose items are still text.
type lazySeq struct {
	key    string
	data   []byte  // the whole file
	chunks []chunk // one per item, in order
}

// chunk is the text of one sequence item: data[start:end], starting at
// line (1-based) and at the start of that line.
type chunk struct {
	start, end, line int
}

// splitText cuts the items of the splitKeys blocks out of data. It returns
// the rest of the file, with the cut lines blank, and the blocks in the
// order they appear; ok is false when data has a shape this does not
// handle, and the file must be parsed whole.
func splitText(data []byte) (rest []byte, seqs []*lazySeq, ok bool) {
	var out bytes.Buffer
	out.Grow(len(data) / 8)
	var cur *lazySeq // the block being cut, if any
	indent := -1     // its items' indentation, once known
	sawContent := false
	line := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off + 1
		}
		line++
		text := data[off:end]
		off = end
		body := bytes.TrimLeft(text, " ")
		ind := len(text) - len(body)
		trimmed := bytes.TrimRight(body, " \r\n")
		blank := len(trimmed) == 0 || trimmed[0] == '#'
		if !blank && trimmed[0] == '\t' {
			return nil, nil, false
		}
		if cur != nil {
			switch {
			case blank && len(cur.chunks) == 0:
				out.Write(text)
				continue
			case blank:
				cur.chunks[len(cur.chunks)-1].end = end
				out.WriteByte('\n')
				continue
			case ind == 0 && !(indent <= 0 && isItemStart(trimmed)):
				cur = nil // a top-level key ends the block
			case indent < 0 || ind == indent:
				if !isItemStart(trimmed) {
					return nil, nil, false
				}
				indent = ind
				cur.chunks = append(cur.chunks, chunk{start: end - len(text), end: end, line: line})
				out.WriteByte('\n')
				continue
			case ind < indent:
				return nil, nil, false
			default: // a line of the current item
				cur.chunks[len(cur.chunks)-1].end = end
				out.WriteByte('\n')
				continue
			}
		}
		out.Write(text)
		if blank || ind > 0 {
			continue // inside a top-level value that is not cut
		}
		switch {
		case bytes.HasPrefix(trimmed, []byte("---")) && !sawContent:
			continue
		case bytes.HasPrefix(trimmed, []byte("---")), bytes.HasPrefix(trimmed, []byte("...")), !isKeyStart(trimmed[0]):
			return nil, nil, false
		}
		sawContent = true
		if k, after, found := bytes.Cut(trimmed, []byte(":")); found && splitKeys[string(k)] && isEmptyValue(after) {
			cur, indent = &lazySeq{key: string(k), data: data}, -1
			seqs = append(seqs, cur)
		}
	}
	if len(seqs) == 0 {
		return nil, nil, false
	}
	for _, s := range seqs {
		if len(s.chunks) == 0 {
			return nil, nil, false
		}
	}
	return out.Bytes(), seqs, true
}

// isItemStart reports whether a trimmed line starts a block sequence item.
func isItemStart(t []byte) bool {
	return len(t) == 1 && t[0] == '-' || len(t) > 1 && t[0] == '-' && t[1] == ' '
}

// isKeyStart reports whether a top-level line can start a plain key: not a
// flow collection, sequence, complex key, anchor, tag, alias, quote,
// block scalar or directive.
func isKeyStart(c byte) bool {
	switch c {
	case '{', '[', '-', '?', '&', '!', '*', '"', '\'', '|', '>', '%', '@', '`', ':', '#':
		return false
	}
	return true
}

// isEmptyValue reports whether what follows "key:" on its line leaves the
// value to the next lines: nothing, or a comment.
func isEmptyValue(after []byte) bool {
	t := bytes.TrimLeft(after, " ")
	return len(t) == 0 || t[0] == '#' && len(t) < len(after)
}

// openSplit parses a large file item by item when it can: the rest of the
// file now, and the items of the cut blocks when the walk reaches them.
// It returns the root, or nil when the file must be parsed whole.
func (l *loader) openSplit(data []byte) *yaml.Node {
	rest, seqs, ok := splitText(data)
	if !ok {
		return nil
	}
	root := l.parse(rest)
	if root == nil || len(l.C.Errs) > 0 {
		l.C.Errs = nil
		return nil
	}
	// Each cut block left "key:" with a null value behind; put a stub
	// sequence there, which eachItem reads from the text.
	j := 0
	m := root
	for i := 0; i+1 < len(m.Content) && j < len(seqs); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != seqs[j].key {
			continue
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() != yamlpos.TagNull || v.Value != "" {
			return nil
		}
		first := seqs[j].chunks[0]
		col := first.start
		for col < len(data) && data[col] == ' ' {
			col++
		}
		stub := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first.line, Column: col - first.start + 1}
		m.Content[i+1] = stub
		if l.lazy == nil {
			l.lazy = map[*yaml.Node]*lazySeq{}
		}
		l.lazy[stub] = seqs[j]
		j++
	}
	if j != len(seqs) {
		return nil
	}
	return root
}

// groupItems and groupBytes bound the items parsed by one decoder: one
// decoder per item would spend more on setting up parsers than on
// parsing, one for all would hold every node again.
const (
	groupItems = 256
	groupBytes = 256 << 10
)

// group is the nodes of a group of items; r, when not nil, is the reader
// whose slabs hold them, to be released once they have been walked.
type group struct {
	items []*yaml.Node
	r     *fastReader
}

// parseGroup parses the text of the items chunks[i:j] into their nodes,
// with the lines of the whole file; its items are nil when the text is
// not exactly those items on its own, and the file must be parsed whole.
func parseGroup(s *lazySeq, i, j int) group {
	if items, r := fastItems(s, i, j); items != nil {
		return group{items, r}
	}
	return group{items: yamlGroup(s, i, j)}
}

// yamlGroup is parseGroup through yaml.v3.
func yamlGroup(s *lazySeq, i, j int) []*yaml.Node {
	first, last := s.chunks[i], s.chunks[j-1]
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(s.data[first.start:last.end])).Decode(&doc); err != nil {
		return nil
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode || len(doc.Content[0].Content) != j-i {
		return nil
	}
	items := doc.Content[0].Content
	for _, item := range items {
		shiftLines(item, first.line-1)
	}
	return items
}

// groupEnd returns the end of the group of items starting at i.
func (s *lazySeq) groupEnd(i int) int {
	j := i + 1
	for j < len(s.chunks) && j-i < groupItems && s.chunks[j].end-s.chunks[i].start <= groupBytes {
		j++
	}
	return j
}

// shiftLines moves every node under n down by delta lines. Aliases are
// not followed: their targets are in the tree already.
func shiftLines(n *yaml.Node, delta int) {
	n.Line += delta
	for _, c := range n.Content {
		shiftLines(c, delta)
	}
}

// eachItem calls fn with each item of the array n, in order, and reports
// whether n is an array (otherwise the error is recorded, as seq does).
//
// The items of a cut block are parsed a group at a time, on up to
// GOMAXPROCS goroutines ahead of the walk (parsing is most of the work;
// the walk itself is not concurrent), and interpolated as they are walked.
// The queue of groups in flight is bounded, so only a few groups' nodes
// exist at once.
func (l *loader) eachItem(n *yaml.Node, ptr, what string, fn func(i int, item *yaml.Node)) bool {
	s := l.lazy[n]
	if s == nil {
		items, ok := l.seq(n, ptr, what)
		for i, item := range items {
			fn(i, item)
		}
		return ok
	}
	workers := runtime.GOMAXPROCS(0)
	// futures hold the groups in order; each is filled by its own parser.
	futures := make(chan chan group, workers)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(futures)
		for i := 0; i < len(s.chunks); {
			j := s.groupEnd(i)
			fut := make(chan group, 1) // never blocks its parser
			select {
			case futures <- fut:
			case <-stop:
				return
			}
			go func(i, j int) { fut <- parseGroup(s, i, j) }(i, j)
			i = j
		}
	}()
	// One interpolation serves every item: its steps are reset per item.
	var w *interpolation
	if l.sc != nil {
		w = &interpolation{l: l, sc: l.sc, steps: make([]step, 0, 16)}
	}
	i := 0
	for fut := range futures {
		g := <-fut
		if g.items == nil {
			l.splitFailed = true
			return true
		}
		for _, item := range g.items {
			if w != nil {
				w.steps = append(w.steps[:0], step{key: s.key, idx: -1}, step{idx: i})
				w.walk(nil, item)
			}
			fn(i, item)
			i++
		}
		// The walk keeps no node (the typed tests hold copies of what
		// they need), so the group's slabs can hold the next group's.
		g.r.release()
	}
	return true
}
