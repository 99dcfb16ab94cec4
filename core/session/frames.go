package session

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/mcptest/mcptest/core/session/internal/wire"
	"github.com/mcptest/mcptest/internal/redact"
)

// FrameLimit is how many bytes of one frame a Frame keeps; the rest is
// replaced by a truncation marker.
const FrameLimit = wire.FrameLimit

// Redacted replaces a secret wherever mcptest records or prints text. It
// is redact.Mask: the whole program masks with one redactor.
const Redacted = redact.Mask

// Direction says which way a frame travelled.
type Direction string

// The two directions of a frame.
const (
	// Sent is a frame mcptest wrote to the server.
	Sent Direction = "sent"
	// Received is a frame mcptest read from the server.
	Received Direction = "received"
)

// Frame is one JSON-RPC message as it crossed the wire, without the
// trailing newline. Frames longer than FrameLimit are cut, and end with a
// marker such as "…[truncated: 52428800 bytes in total]".
type Frame struct {
	// Direction says whether mcptest sent or received the frame.
	Direction Direction `json:"direction"`
	// Time is when the frame was written or read.
	Time time.Time `json:"time"`
	// Raw is the frame's text, possibly truncated.
	Raw string `json:"raw"`
	// Size is the frame's full length in bytes.
	Size int `json:"size"`
	// Truncated tells whether Raw was cut.
	Truncated bool `json:"truncated,omitempty"`
	// Event is the SSE event type the frame arrived as ("message" unless
	// the server named another), or "" when it did not come over SSE.
	Event string `json:"event,omitempty"`
	// EventID is the SSE event id the server gave the frame, if any.
	EventID string `json:"event_id,omitempty"`
}

// frame makes a Frame of b, scrubbed of the session's known secrets, with
// the SSE event type and id it came with (both "" otherwise).
func (s *Session) frame(dir Direction, at time.Time, b []byte, event, id string) Frame {
	if s.redact == nil {
		f := newFrame(dir, at, b)
		f.Event, f.EventID = event, id
		return f
	}
	// Masked before the cut, so a secret straddling FrameLimit is not
	// left half in the frame. Only what is kept, and a margin after it in
	// which a secret could end, is masked: the rest is dropped anyway.
	b = wire.TrimNewline(b)
	size := len(b)
	if size > FrameLimit+wire.MaskMargin {
		b = b[:FrameLimit+wire.MaskMargin]
	}
	b = s.redact.ScrubBytes(b)
	var f Frame
	if size <= FrameLimit {
		f = Frame{Direction: dir, Time: at, Size: size, Raw: string(b)}
	} else {
		f = newCutFrame(dir, at, b, size)
	}
	f.Event, f.EventID = event, id
	return f
}

// newFrame copies at most FrameLimit bytes of b into a Frame.
func newFrame(dir Direction, at time.Time, b []byte) Frame {
	b = wire.TrimNewline(b)
	return newCutFrame(dir, at, b, len(b))
}

// newCutFrame makes a Frame of a message of size bytes that starts with
// head (which may hold all of it).
func newCutFrame(dir Direction, at time.Time, head []byte, size int) Frame {
	f := Frame{Direction: dir, Time: at, Size: size}
	if size <= FrameLimit && len(head) == size {
		f.Raw = string(head)
		return f
	}
	limit := min(len(head), FrameLimit)
	cut := limit
	// Do not split a UTF-8 sequence.
	for cut > 0 && cut > limit-utf8.UTFMax && cut < len(head) && !utf8.RuneStart(head[cut]) {
		cut--
	}
	f.Raw = string(head[:cut]) + fmt.Sprintf("…[truncated: %d bytes in total]", size)
	f.Truncated = true
	return f
}
