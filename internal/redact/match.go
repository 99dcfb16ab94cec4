package redact

import (
	"bytes"
	"slices"
	"sync"
)

// span is a region of a text to replace with Mask; quote asks for the
// mask as a JSON string (a number that was a secret).
type span struct {
	start, end int
	quote      bool
}

// find returns the regions of b that hold a secret, sorted and merged.
// When b is a JSON document only regions that can be replaced without
// breaking it are kept (json.go).
func find(b []byte, ss []*secret) []span {
	var spans []span
	// Depth 0: the secret as plain bytes, which is also every form at any
	// depth that needs no escape: text without a backslash is done.
	for _, s := range ss {
		spans = appendPlain(spans, b, s, nil)
	}
	if deepest := escapedDepth(b, ss); deepest > 0 {
		spans = appendEscaped(spans, b, ss, deepest)
	}
	if len(spans) == 0 {
		return nil
	}
	if looksLikeJSON(b) {
		if spans = keepJSONSafe(b, spans); len(spans) == 0 {
			return nil
		}
	}
	return merge(spans)
}

// escapedDepth is the fast pass: it decodes b one level of escaping at a
// time, as long as backslashes remain and at most MaxDepth times, and
// returns the deepest level at which some secret occurs, or 0. Nothing is
// mapped back to b here: a secret is rarely present, and when it is the
// precise pass does that work.
func escapedDepth(b []byte, ss []*secret) int {
	if bytes.IndexByte(b, '\\') < 0 {
		return 0
	}
	bufs := scratch.Get().(*[2][]byte)
	defer scratch.Put(bufs)
	deepest := 0
	cur := b
	for depth := 1; depth <= MaxDepth && bytes.IndexByte(cur, '\\') >= 0; depth++ {
		out := unescape(bufs[depth%2][:0], cur)
		bufs[depth%2] = out
		for _, s := range ss {
			if s.index(out) >= 0 {
				deepest = depth
				break
			}
		}
		cur = out
	}
	if cap(bufs[0]) > maxPooled || cap(bufs[1]) > maxPooled {
		bufs[0], bufs[1] = nil, nil // a huge frame's buffers are not kept
	}
	return deepest
}

// maxPooled bounds the decoding buffers kept for the next call.
const maxPooled = 1 << 20

var scratch = sync.Pool{New: func() any { return new([2][]byte) }}

// appendEscaped is the precise pass: it decodes b again, up to depth
// levels, keeping for every decoded byte where it came from, and appends
// the region of b behind every occurrence of a secret at every level.
func appendEscaped(spans []span, b []byte, ss []*secret, depth int) []span {
	l := level{text: b, start: make([]int, len(b)), end: make([]int, len(b))}
	for i := range b {
		l.start[i], l.end[i] = i, i+1
	}
	for range depth {
		l = unescapeTracked(l)
		for _, s := range ss {
			spans = appendPlain(spans, l.text, s, &l)
		}
	}
	return spans
}

// appendPlain appends every occurrence of needle in text, overlapping ones
// included; with l, text is l.text and the spans are mapped back to the
// original text.
func appendPlain(spans []span, text []byte, s *secret, l *level) []span {
	for i := 0; ; {
		j := s.index(text[i:])
		if j < 0 {
			return spans
		}
		from, to := i+j, i+j+len(s.raw)
		if l != nil {
			from, to = l.start[from], l.end[to-1]
		}
		spans = append(spans, span{start: from, end: to})
		i += j + 1
	}
}

// merge sorts spans and joins those that overlap or touch, so each masked
// region is written once.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if s.start <= last.end && s.quote == last.quote {
			last.end = max(last.end, s.end)
			continue
		}
		if s.start < last.end {
			// A quoted number span overlapping a string span cannot
			// happen (numbers are outside strings); keep the first.
			continue
		}
		out = append(out, s)
	}
	return out
}

// apply returns a copy of b with every span replaced by Mask.
func apply(b []byte, spans []span) []byte {
	out := make([]byte, 0, len(b)+len(spans)*(len(Mask)+2))
	at := 0
	for _, s := range spans {
		out = append(out, b[at:s.start]...)
		if s.quote {
			out = append(out, '"')
			out = append(out, Mask...)
			out = append(out, '"')
		} else {
			out = append(out, Mask...)
		}
		at = s.end
	}
	return append(out, b[at:]...)
}
