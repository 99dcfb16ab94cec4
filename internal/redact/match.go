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
	if escapedDepth(b, ss) > 0 {
		spans = appendEscapedSegments(spans, b, ss)
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
	buf := scratch.Get().(*[]byte)
	defer scratch.Put(buf)
	deepest := 0
	// Level 1 is decoded into the buffer, each deeper level over the one
	// before, in place: decoding never lengthens a text, so one buffer
	// the size of b is all the memory this takes.
	cur := unescape((*buf)[:0], b)
	*buf = cur
	for depth := 1; ; depth++ {
		for _, s := range ss {
			if s.index(cur) >= 0 {
				deepest = depth
				break
			}
		}
		if depth == MaxDepth || bytes.IndexByte(cur, '\\') < 0 {
			break
		}
		cur = unescape(cur[:0], cur)
	}
	if cap(*buf) > maxPooled {
		*buf = nil // a huge text's buffer is not kept
	}
	return deepest
}

// maxTracked is the longest piece decoded with offsets (appendEscaped).
const maxTracked = 1 << 20

// maxPooled bounds the decoding buffers kept for the next call.
const maxPooled = 1 << 20

var scratch = sync.Pool{New: func() any { return new([]byte) }}

// appendEscapedSegments runs the precise pass only where it is needed. A
// match below depth 0 never spans a bare quote (one that is not part of
// an escape): that quote opens or closes a string. So b is cut at its bare
// quotes, and only the pieces the fast pass finds a secret in are decoded
// again with their offsets, instead of the whole text (a report can be
// megabytes).
func appendEscapedSegments(spans []span, b []byte, ss []*secret) []span {
	piece := func(from, to int) {
		seg := b[from:to]
		if depth := escapedDepth(seg, ss); depth > 0 {
			if len(seg) > maxTracked {
				// Offsets cost 16 bytes a byte: a huge string holding a
				// secret is masked whole instead.
				spans = append(spans, span{start: from, end: to})
				return
			}
			n := len(spans)
			spans = appendEscaped(spans, seg, ss, depth)
			for i := n; i < len(spans); i++ {
				spans[i].start += from
				spans[i].end += from
			}
		}
	}
	from := 0
	for i := 0; i < len(b); {
		k := bytes.IndexAny(b[i:], `"\`)
		if k < 0 {
			break
		}
		i += k
		if b[i] == '\\' {
			_, n := escape(b[i:])
			i += n
			continue
		}
		piece(from, i)
		i++
		from = i
	}
	piece(from, len(b))
	return spans
}

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
