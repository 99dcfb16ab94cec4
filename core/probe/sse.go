package probe

import (
	"errors"
	"io"
	"strings"

	"github.com/mcptest/mcptest/internal/sse"
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
	lines  *sse.LineReader // the program's one bounded SSE line reader
	lastID string
}

// NewSSEReader parses r; a line longer than maxLine bytes (0 means
// DefaultMaxLine) is an error, so a hostile stream cannot grow a buffer
// without bound.
func NewSSEReader(r io.Reader, maxLine int) *SSEReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &SSEReader{lines: sse.NewLineReader(r, maxLine)}
}

// ErrLineTooLong is returned for an SSE line over the reader's bound.
var ErrLineTooLong = sse.ErrLineTooLong

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
		name, v, comment := sse.Field([]byte(line))
		value := string(v)
		if comment {
			ev.Comments = append(ev.Comments, value)
			continue
		}
		switch string(name) {
		case "data":
			data = append(data, value)
			ev.HasData = true
		case "event":
			ev.Type = value
		case "id":
			// An id containing NUL is ignored, per the standard.
			if sse.ValidID(v) {
				ev.ID, ev.HasID = value, true
				s.lastID = value
			}
		case "retry":
			if n, ok := sse.Retry(v); ok {
				ev.Retry = int(n)
			}
		}
	}
}

// line reads one line ending in \n, \r\n or \r, without the ending.
func (s *SSEReader) line() (string, error) {
	line, err := s.lines.Next()
	if errors.Is(err, sse.ErrLineTooLong) {
		return "", ErrLineTooLong
	}
	return string(line), err
}
