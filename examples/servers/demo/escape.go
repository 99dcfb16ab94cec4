package main

import (
	"fmt"
	"net/http"
	"unicode/utf16"
	"unicode/utf8"
)

// escapeJSON is set by --escape-json: the server then writes JSON strings
// the way many non-Go servers do, "/" as "\/" and every non-ASCII
// character as \uXXXX (astral ones as surrogate pairs), alternating lower
// and upper case hex. Tests use it to check that mcptest reads, and masks
// secrets in, every form a server may use.
var escapeJSON bool

// jsonEscaper rewrites the strings of a JSON text (or of JSON carried in
// SSE events: quotes appear nowhere else) as escapeJSON says, one byte at
// a time, so it can sit on a stream.
type jsonEscaper struct {
	inString, escaped bool
	upper             bool   // the case of the next \u escape
	pending           []byte // an incomplete UTF-8 sequence
}

// write appends to dst the rewritten form of p.
func (e *jsonEscaper) write(dst, p []byte) []byte {
	for _, c := range p {
		if len(e.pending) > 0 || (e.inString && c >= utf8.RuneSelf) {
			e.pending = append(e.pending, c)
			if !utf8.FullRune(e.pending) {
				continue
			}
			r, _ := utf8.DecodeRune(e.pending)
			e.pending = e.pending[:0]
			dst = e.unicode(dst, r)
			continue
		}
		switch {
		case !e.inString:
			e.inString = c == '"'
		case e.escaped:
			e.escaped = false
		case c == '\\':
			e.escaped = true
		case c == '"':
			e.inString = false
		case c == '/':
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return dst
}

// unicode appends r as one \u escape, or two for a surrogate pair.
func (e *jsonEscaper) unicode(dst []byte, r rune) []byte {
	units := []rune{r}
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		units = []rune{hi, lo}
	}
	for _, u := range units {
		format := `\u%04x`
		if e.upper {
			format = `\u%04X`
		}
		e.upper = !e.upper
		dst = fmt.Appendf(dst, format, u)
	}
	return dst
}

// escapeText rewrites one whole JSON text.
func escapeText(b []byte) []byte {
	var e jsonEscaper
	return e.write(nil, b)
}

// escapingHandler serves h with every response body rewritten.
func escapingHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&escapingWriter{ResponseWriter: w}, r)
	})
}

// escapingWriter rewrites a response body as it is written.
type escapingWriter struct {
	http.ResponseWriter
	e   jsonEscaper
	buf []byte
}

func (w *escapingWriter) Write(p []byte) (int, error) {
	w.buf = w.e.write(w.buf[:0], p)
	if _, err := w.ResponseWriter.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps SSE streams flowing through the rewriter.
func (w *escapingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
