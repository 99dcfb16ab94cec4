package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// ErrCaptureBusy is returned by StartCapture while another capture of the
// session is running: what the server sends could not be attributed.
var ErrCaptureBusy = errors.New("another capture is running on the session")

// maxAmbientFrames bounds the frames a call collects from outside its own
// response stream (stdio, the GET stream, the legacy SSE stream), so a
// chatty server cannot grow a long call's record without end.
const maxAmbientFrames = 256

// maxCaptureEvents bounds what one capture keeps; later messages are
// counted but dropped.
const maxCaptureEvents = 10_000

// ClientOptions are the client features a session offers its server.
type ClientOptions struct {
	// Mocks answer the requests the server sends outside a capture, and
	// inside one for the features the capture's own mocks leave unset.
	// nil answers none (each gets a JSON-RPC error).
	Mocks *Mocks
	// Declare lists capabilities initialize declares besides those Mocks
	// offers: features that only some captures' mocks answer.
	Declare ClientCapabilities
}

// declared returns the capabilities initialize declares. Roots are
// declared without listChanged: the session never sends
// notifications/roots/list_changed.
func (o ClientOptions) declared() mcp.ClientCapabilities {
	c := o.Mocks.Capabilities().Union(o.Declare)
	var caps mcp.ClientCapabilities
	if c.Roots {
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{}
	}
	if c.Sampling {
		caps.Sampling = &mcp.SamplingCapability{}
	}
	if c.Elicitation {
		// An empty object declares form mode, in every revision.
		caps.Elicitation = &mcp.ElicitationCapability{}
	}
	return caps
}

// CaptureOptions tune a capture.
type CaptureOptions struct {
	// Mocks answer the server's requests during the capture; features
	// they leave unset fall back to the session's mocks.
	Mocks *Mocks
}

// Event is one notification or request the server sent during a capture.
type Event struct {
	// At is when it arrived.
	At time.Time
	// Method is its method, such as notifications/progress.
	Method string
	// Params are its params as sent, or nil.
	Params json.RawMessage
	// Request tells a request (it had an id) from a notification.
	Request bool
	// Response is what mcptest answered a request with:
	// {"result": ...} or {"error": ...}; nil for a notification.
	Response json.RawMessage
}

// Capture collects what the server sends while it runs: every
// notification and request, in arrival order, and the frames of the
// messages that travelled outside the response streams of calls (those
// are in the calls' own Outcome.Frames). The runner starts one around a
// test that runs alone on its session, so everything captured belongs to
// that test. Its methods are safe for concurrent use.
type Capture struct {
	s    *Session
	opts CaptureOptions

	mu      sync.Mutex
	events  []Event
	frames  []Frame
	dropped int
	changed chan struct{} // closed, and replaced, when an event arrives
	stopped bool
}

// feeds is the session's capture state.
type feeds struct {
	mu     sync.Mutex
	active *Capture
}

// StartCapture begins collecting what the server sends. Stop must be
// called to end it. Only one capture runs on a session at a time; while
// one runs, StartCapture fails with ErrCaptureBusy.
func (s *Session) StartCapture(opts CaptureOptions) (*Capture, error) {
	s.feeds.mu.Lock()
	defer s.feeds.mu.Unlock()
	if s.feeds.active != nil {
		return nil, fmt.Errorf("server %q: %w", s.opts.name, ErrCaptureBusy)
	}
	c := &Capture{s: s, opts: opts, changed: make(chan struct{})}
	s.feeds.active = c
	return c, nil
}

// Stop ends the capture. Events and Frames still return what it collected.
func (c *Capture) Stop() {
	c.s.feeds.mu.Lock()
	if c.s.feeds.active == c {
		c.s.feeds.active = nil
	}
	c.s.feeds.mu.Unlock()
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
}

// Events returns a copy of the events so far, in arrival order.
func (c *Capture) Events() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.events...)
}

// Frames returns a copy of the frames collected so far: messages that
// arrived outside any call's response stream, and mcptest's answers to
// the server's requests.
func (c *Capture) Frames() []Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Frame(nil), c.frames...)
}

// Dropped returns how many events arrived after the capture was full.
func (c *Capture) Dropped() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

// Wait blocks until done reports true for the events so far, ctx ends or
// the session dies. done is called with the capture's lock held and must
// not keep the slice.
func (c *Capture) Wait(ctx context.Context, done func([]Event) bool) error {
	for {
		c.mu.Lock()
		if done(c.events) {
			c.mu.Unlock()
			return nil
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.s.dead:
			return c.s.deathError()
		}
	}
}

// add records an event, and the frame when it travelled outside a call's
// stream (f is nil otherwise).
func (c *Capture) add(e Event, f *Frame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f != nil && len(c.frames) < maxCaptureEvents {
		c.frames = append(c.frames, *f)
	}
	if len(c.events) >= maxCaptureEvents {
		c.dropped++
		return
	}
	c.events = append(c.events, e)
	close(c.changed)
	c.changed = make(chan struct{})
}

// addFrame records a frame that is not an event (an answer mcptest sent).
func (c *Capture) addFrame(f Frame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.frames) < maxCaptureEvents {
		c.frames = append(c.frames, f)
	}
}

// capture returns the running capture, or nil.
func (s *Session) capture() *Capture {
	s.feeds.mu.Lock()
	defer s.feeds.mu.Unlock()
	return s.feeds.active
}

// addAmbient records a frame from outside any response stream on every
// call in flight, up to maxAmbientFrames each: with no capture running,
// the calls in flight are all the message can belong to.
func (s *Session) addAmbient(f Frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.pending {
		c.mu.Lock()
		if c.ambient < maxAmbientFrames {
			c.ambient++
			c.strm = append(c.strm, f)
		}
		c.mu.Unlock()
	}
}
