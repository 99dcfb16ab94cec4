package httpwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mcptest/mcptest/internal/lines"
	"github.com/mcptest/mcptest/internal/sse"
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
	lines *sse.LineReader // the program's one bounded SSE line reader
	max   int             // bound on one line and on one event's data
	data  []byte
	event string

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
	s := &sseReader{lines: sse.NewLineReader(r, max), max: max}
	// The line's bytes count against the body budget with the data the
	// event already holds.
	s.lines.Reserve = func(n int) error { return s.hold.ensure(n + len(s.data)) }
	return s
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
	if cap(r.data) > lines.KeepBufferMax {
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
	name, value, comment := sse.Field(line)
	if comment {
		r.comments++
		return nil
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
		if sse.ValidID(value) {
			r.lastID = string(value)
		}
	case "retry":
		if ms, ok := sse.Retry(value); ok && ms <= math.MaxInt32 {
			r.retry = time.Duration(ms) * time.Millisecond
		}
	}
	return nil
}

// readLine returns the next line without its terminator (see
// sse.LineReader.Next); a line over the bound is errEventTooLong.
func (r *sseReader) readLine() ([]byte, error) {
	line, err := r.lines.Next()
	if errors.Is(err, sse.ErrLineTooLong) {
		return nil, fmt.Errorf("%w: a line exceeds %d bytes", errEventTooLong, r.max)
	}
	return line, err
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
