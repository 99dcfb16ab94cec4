package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// errEventTooLong reports an SSE line or event longer than the limit.
var errEventTooLong = errors.New("SSE event too long")

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	event string // the event type; "message" when the server named none
	data  []byte // the data lines joined with "\n"; valid until the next call
	id    string // the last event id in force when it was dispatched
}

// sseReader parses a text/event-stream as the HTML Living Standard
// describes it (§9.2.6): lines end in CRLF, LF or CR; a line starting with
// ":" is a comment; "event", "data", "id" and "retry" are the fields; a
// blank line dispatches the event, unless it has no data.
type sseReader struct {
	br     *bufio.Reader
	max    int // bound on one line and on one event's data
	line   []byte
	data   []byte
	event  string
	hasLF  bool // a line ended in CR: a following LF belongs to it
	primed bool // the byte-order mark has been checked

	// lastID is the last event id the stream set, as a client would send
	// it in Last-Event-ID; it survives events without data (a priming
	// event sets it with empty data).
	lastID string
	// retry is the reconnection delay the server asked for, or 0.
	retry time.Duration
	// comments counts comment lines (keep-alives), for diagnostics.
	comments int
	// hold is what the event being read holds of the session's body
	// budget; nil for no shared bound.
	hold *bodyHold
}

// newSSEReader reads events from r, bounding lines and events to max bytes.
func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 32<<10), max: max}
}

// carriesMessage reports whether ev holds a JSON-RPC message: a "message"
// event with data. A priming event (an id and empty data) holds none.
func (ev sseEvent) carriesMessage() bool {
	return ev.event == "message" && len(bytes.TrimSpace(ev.data)) > 0
}

// next returns the next event with at least one data line. At the end of
// the stream it returns io.EOF; an event cut off by the end is not
// dispatched, as the standard says. Other errors are the body's read
// errors or errEventTooLong.
func (r *sseReader) next() (sseEvent, error) {
	r.data, r.event = r.data[:0], ""
	if cap(r.data) > keepBufferMax {
		r.data = nil // release the buffer of a huge event
	}
	// The previous event has been handled: what it held goes back.
	r.hold.release()
	for {
		line, err := r.readLine()
		if err != nil {
			r.hold.release()
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if len(r.data) == 0 {
				r.event = ""
				continue
			}
			ev := sseEvent{event: r.event, data: bytes.TrimSuffix(r.data, []byte("\n")), id: r.lastID}
			if ev.event == "" {
				ev.event = "message"
			}
			return ev, nil
		}
		if err := r.field(line); err != nil {
			r.hold.release()
			return sseEvent{}, err
		}
	}
}

// field processes one non-blank line.
func (r *sseReader) field(line []byte) error {
	if line[0] == ':' {
		r.comments++
		return nil
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch string(name) {
	case "event":
		r.event = string(value)
	case "data":
		if len(r.data)+len(value)+1 > r.max {
			return fmt.Errorf("%w: event data exceeds %d bytes", errEventTooLong, r.max)
		}
		// The line's bytes move into data: counted once, as the line
		// already holds them.
		if err := r.hold.ensure(len(r.data) + len(value) + 1); err != nil {
			return err
		}
		r.data = append(r.data, value...)
		r.data = append(r.data, '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	case "retry":
		if ms, err := strconv.ParseUint(string(value), 10, 31); err == nil && isDigits(value) {
			r.retry = time.Duration(ms) * time.Millisecond
		}
	}
	return nil
}

// isDigits reports whether b is non-empty and all ASCII digits.
func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readLine returns the next line without its terminator; the slice is
// valid until the next call. It returns the read error at the end of the
// stream, dropping an unterminated last line.
func (r *sseReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	if cap(r.line) > keepBufferMax {
		r.line = nil
	}
	if !r.primed {
		r.primed = true
		// Peek past the first byte only when it can start a BOM, so a
		// short stream is never held up.
		if b, err := r.br.Peek(1); err == nil && b[0] == 0xEF {
			if b, err := r.br.Peek(3); err == nil && string(b) == "\uFEFF" {
				_, _ = r.br.Discard(3)
			}
		}
	}
	for {
		if r.hasLF {
			// Looked at lazily, so a line ending in CR is returned at once
			// rather than when the next byte arrives.
			b, err := r.br.Peek(1)
			if err != nil {
				return nil, err
			}
			r.hasLF = false
			if b[0] == '\n' {
				_, _ = r.br.Discard(1)
				continue
			}
		}
		if r.br.Buffered() == 0 {
			if _, err := r.br.Peek(1); err != nil {
				return nil, err
			}
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		i := bytes.IndexAny(buf, "\r\n")
		end := i
		if i < 0 {
			end = len(buf)
		}
		if len(r.line)+end > r.max {
			return nil, fmt.Errorf("%w: a line exceeds %d bytes", errEventTooLong, r.max)
		}
		if err := r.hold.ensure(len(r.line) + end + len(r.data)); err != nil {
			return nil, err
		}
		r.line = append(r.line, buf[:end]...)
		if i < 0 {
			_, _ = r.br.Discard(len(buf))
			continue
		}
		r.hasLF = buf[i] == '\r'
		_, _ = r.br.Discard(i + 1)
		return r.line, nil
	}
}

// describeStreamEnd says how a stream ended for messages.
func describeStreamEnd(err error) string {
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return "the server ended the SSE stream"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection broke in the middle of the SSE stream"
	default:
		return "the SSE stream failed: " + strings.TrimPrefix(err.Error(), "read: ")
	}
}
