package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// DefaultMaxBody bounds a response body read by HTTPClient.
const DefaultMaxBody = 16 << 20

// HTTPClient sends requests exactly as given and returns responses exactly
// as received: it never follows redirects, never retries, never adds MCP
// headers of its own, and never turns a status code into an error.
type HTTPClient struct {
	// URL is the MCP endpoint.
	URL string
	// Client does the transport; nil means one that follows no redirects.
	Client *http.Client
	// Header is added to every request (credentials, custom headers);
	// a request's own headers win.
	Header http.Header
	// MaxBody bounds the bytes read from a body; 0 means DefaultMaxBody.
	MaxBody int64
}

// HTTPRequest is one request to send.
type HTTPRequest struct {
	// Method defaults to POST.
	Method string
	Header http.Header
	Body   []byte
	// Host, when set, replaces the Host header (DNS-rebinding probes).
	Host string
	// Until stops reading an SSE body as soon as it returns true for an
	// event, typically the one carrying the response to the request; nil
	// reads to the end of the stream or the context's deadline.
	Until func(*Event) bool
}

// HTTPResponse is a response as received.
type HTTPResponse struct {
	Status int
	Header http.Header
	// SSE is set when the Content-Type is text/event-stream; Events then
	// holds the events read and Body stays empty.
	SSE    bool
	Events []Event
	// Body is a non-SSE body, verbatim up to MaxBody.
	Body      []byte
	Truncated bool
	// StreamErr says why an SSE body stopped before its end or before
	// Until was satisfied (a deadline, a broken connection); nil otherwise.
	StreamErr error
	Elapsed   time.Duration
}

// ContentType returns the media type of the response without parameters.
func (r *HTTPResponse) ContentType() string { return mediaType(r.Header.Get("Content-Type")) }

func mediaType(v string) string {
	mt, _, err := mime.ParseMediaType(v)
	if err != nil {
		return v
	}
	return mt
}

func (c *HTTPClient) client() *http.Client {
	if c.Client != nil {
		return c.Client
	}
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (c *HTTPClient) maxBody() int64 {
	if c.MaxBody > 0 {
		return c.MaxBody
	}
	return DefaultMaxBody
}

// Do sends req and reads the whole response, bounded by ctx: an SSE body is
// read until Until is satisfied, the stream ends or ctx expires (the events
// read so far are returned, with StreamErr set); a failure to connect or to
// get headers is an error.
func (c *HTTPClient) Do(ctx context.Context, req HTTPRequest) (*HTTPResponse, error) {
	start := time.Now()
	s, err := c.Open(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res := &HTTPResponse{Status: s.Status, Header: s.Header, SSE: s.SSE}
	if !s.SSE {
		body, err := io.ReadAll(io.LimitReader(s.body, c.maxBody()+1))
		if int64(len(body)) > c.maxBody() {
			body, res.Truncated = body[:c.maxBody()], true
		}
		res.Body = body
		res.Elapsed = time.Since(start)
		if err != nil {
			return res, fmt.Errorf("read %s response body: %w", s.method, err)
		}
		return res, nil
	}
	for {
		ev, err := s.Next(ctx)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.StreamErr = err
			}
			break
		}
		res.Events = append(res.Events, ev)
		if req.Until != nil && req.Until(&ev) {
			break
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// HTTPStream is a response whose body is read incrementally, such as the
// standalone GET event stream.
type HTTPStream struct {
	Status int
	Header http.Header
	// SSE is set when the body is an event stream.
	SSE    bool
	method string
	body   io.ReadCloser
	events chan sseItem
	cancel context.CancelFunc
}

type sseItem struct {
	ev  Event
	err error
}

// Open sends req and returns once the response headers arrive. The body
// stays open until Close or until ctx ends.
func (c *HTTPClient) Open(ctx context.Context, req HTTPRequest) (*HTTPStream, error) {
	method := req.Method
	if method == "" {
		method = http.MethodPost
	}
	ctx, cancel := context.WithCancel(ctx)
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, c.URL, body)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("build %s request: %w", method, err)
	}
	for k, vs := range c.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range req.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	if req.Host != "" {
		hr.Host = req.Host
	}
	resp, err := c.client().Do(hr)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s %s: %w", method, c.URL, err)
	}
	s := &HTTPStream{Status: resp.StatusCode, Header: resp.Header, method: method, body: resp.Body, cancel: cancel}
	s.SSE = mediaType(resp.Header.Get("Content-Type")) == "text/event-stream"
	if s.SSE {
		s.events = make(chan sseItem, 16)
		go s.pump(c.maxBody())
	}
	return s, nil
}

// pump parses events on its own goroutine so Next can time out.
func (s *HTTPStream) pump(maxLine int64) {
	r := NewSSEReader(s.body, int(maxLine))
	for {
		ev, err := r.Next()
		s.events <- sseItem{ev, err}
		if err != nil {
			close(s.events)
			return
		}
	}
}

// Next returns the next event of an SSE body, waiting until ctx ends. It
// returns io.EOF at the end of the stream.
func (s *HTTPStream) Next(ctx context.Context) (Event, error) {
	if !s.SSE {
		return Event{}, errors.New("response is not an event stream")
	}
	select {
	case it, ok := <-s.events:
		if !ok {
			return Event{}, io.EOF
		}
		return it.ev, it.err
	case <-ctx.Done():
		return Event{}, fmt.Errorf("waiting for an SSE event: %w", ctx.Err())
	}
}

// Close drops the connection.
func (s *HTTPStream) Close() {
	s.cancel()
	_ = s.body.Close()
	if s.events != nil {
		// Let the pump finish so its goroutine does not leak.
		go func() {
			for range s.events {
			}
		}()
	}
}
