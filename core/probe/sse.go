package probe

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Event is one server-sent event, with every field the stream gave it.
// Unlike a browser, the parser also returns events whose data is empty (a
// Streamable HTTP server's priming event is one) and keeps comments.
type Event struct {
	// ID is the event's id field; HasID tells an empty id from none.
	ID    string
	HasID bool
	// Type is the event field; "" means the default type, "message".
	Type string
	// Data is the data lines joined with "\n".
	Data    string
	HasData bool
	// Retry is the retry field in milliseconds, or -1 when absent or not
	// a number.
	Retry int
	// Comments are the lines that began with ':', without the colon.
	Comments []string
	// Raw is the event's lines as received, for evidence.
	Raw string
}

// IsPriming reports whether e looks like the priming event Streamable HTTP
// servers SHOULD send first: an id and no data.
func (e *Event) IsPriming() bool { return e.HasID && e.Data == "" }

// SSEReader parses an event stream.
type SSEReader struct {
	br      *bufio.Reader
	maxLine int
	lastID  string
	// skipLF drops a '\n' right after a '\r' that ended the last line,
	// without blocking on a Peek when the server paused between them.
	skipLF bool
}

// NewSSEReader parses r; a line longer than maxLine bytes (0 means
// DefaultMaxLine) is an error, so a hostile stream cannot grow a buffer
// without bound.
func NewSSEReader(r io.Reader, maxLine int) *SSEReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &SSEReader{br: bufio.NewReaderSize(r, 64<<10), maxLine: maxLine}
}

// ErrLineTooLong is returned for an SSE line over the reader's bound.
var ErrLineTooLong = errors.New("SSE line too long")

// Next returns the next event. Blocks of only comments are returned too
// (with no other field set) because keep-alive comments are evidence. At
// the end of the stream it returns io.EOF; a final block without its blank
// line is dropped, as the SSE standard says.
func (s *SSEReader) Next() (Event, error) {
	ev := Event{Retry: -1}
	var data []string
	var raw strings.Builder
	seen := false
	for {
		line, err := s.line()
		if err != nil {
			return Event{}, err
		}
		if line == "" {
			if !seen {
				continue
			}
			ev.Data = strings.Join(data, "\n")
			ev.Raw = raw.String()
			if !ev.HasID {
				// The last event id carries over, as in a browser.
				ev.ID = s.lastID
			}
			return ev, nil
		}
		seen = true
		raw.WriteString(line + "\n")
		if line[0] == ':' {
			ev.Comments = append(ev.Comments, strings.TrimPrefix(line[1:], " "))
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data = append(data, value)
			ev.HasData = true
		case "event":
			ev.Type = value
		case "id":
			// An id containing NUL is ignored, per the standard.
			if !strings.ContainsRune(value, 0) {
				ev.ID, ev.HasID = value, true
				s.lastID = value
			}
		case "retry":
			if n, err := strconv.Atoi(value); err == nil && n >= 0 && strings.Trim(value, "0123456789") == "" {
				ev.Retry = n
			}
		}
	}
}

// line reads one line ending in \n, \r\n or \r, without the ending.
func (s *SSEReader) line() (string, error) {
	var buf bytes.Buffer
	for {
		b, err := s.br.ReadByte()
		if err != nil {
			if buf.Len() > 0 && errors.Is(err, io.EOF) {
				// An unterminated last line never completes an event.
				return "", io.EOF
			}
			return "", err
		}
		if s.skipLF {
			s.skipLF = false
			if b == '\n' {
				continue
			}
		}
		switch b {
		case '\n':
			return buf.String(), nil
		case '\r':
			s.skipLF = true
			return buf.String(), nil
		}
		if buf.Len() >= s.maxLine {
			return "", ErrLineTooLong
		}
		buf.WriteByte(b)
	}
}
