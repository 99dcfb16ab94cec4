package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrTooManyRestarts is returned when a server had to be restarted more
// often than the Caller allows.
var ErrTooManyRestarts = errors.New("the server had to be restarted too often")

// Call is one tools/call to make.
type Call struct {
	Tool string
	// Arguments is sent as params.arguments; nil leaves the field out.
	Arguments json.RawMessage
}

// Result is what one Call produced.
type Result struct {
	Verdict Verdict
	// Outcome is the server's answer, nil when the transport failed
	// before one arrived.
	Outcome  *session.Outcome
	Duration time.Duration
	// Confirmed is set when the call was repeated alone on a fresh server
	// because it broke the transport while other calls were in flight.
	Confirmed bool
}

// Caller makes tool calls on a target, restarting the server when a call
// kills it. It is safe for concurrent use.
type Caller struct {
	Target Target
	// Timeout bounds each call.
	Timeout time.Duration
	// MaxRestarts bounds how often the server is restarted after it died;
	// zero means 50.
	MaxRestarts int

	mu       sync.Mutex
	sess     *session.Session
	gen      int
	restarts int
	first    *session.Session
	// Server describes the first session, for the report.
	Server rpt.Server
}

// Start opens the first session and records what the server said about
// itself.
func (c *Caller) Start(ctx context.Context) (*session.Session, error) {
	s, _, err := c.session(ctx)
	return s, err
}

func (c *Caller) session(ctx context.Context) (*session.Session, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess != nil {
		return c.sess, c.gen, nil
	}
	max := c.MaxRestarts
	if max == 0 {
		max = 50
	}
	if c.gen > 0 {
		if c.restarts >= max {
			return nil, c.gen, fmt.Errorf("%w (%d restarts)", ErrTooManyRestarts, c.restarts)
		}
		c.restarts++
	}
	s, err := c.Target.Open(ctx, c.Timeout)
	if err != nil {
		return nil, c.gen, err
	}
	c.gen++
	c.sess = s
	if c.first == nil {
		c.first = s
		name, ver := s.ServerInfo()
		c.Server = rpt.Server{Name: "server", Transport: s.Transport(), ProtocolVersion: s.ProtocolVersion(), ServerName: name, ServerVersion: ver}
	}
	return s, c.gen, nil
}

// drop closes the session of generation gen if it is still the current
// one, so the next call starts a fresh server.
func (c *Caller) drop(gen int) {
	c.mu.Lock()
	s := c.sess
	if c.gen != gen || s == nil {
		c.mu.Unlock()
		return
	}
	c.sess = nil
	c.mu.Unlock()
	_ = s.Close()
}

// Restarts reports how often the server was restarted.
func (c *Caller) Restarts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.restarts
}

// StderrTail returns the last lines the current server wrote to stderr.
func (c *Caller) StderrTail(n int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return ""
	}
	return session.Sanitize(c.sess.StderrTail(n))
}

// Close stops the server.
func (c *Caller) Close() {
	c.mu.Lock()
	s := c.sess
	c.sess = nil
	c.mu.Unlock()
	if s != nil {
		_ = s.Close()
	}
}

// Call makes one call. A start failure (after a restart) is returned as
// the error; everything the server did is in the Result.
func (c *Caller) Call(ctx context.Context, call Call) (Result, error) {
	s, gen, err := c.session(ctx)
	if err != nil {
		return Result{}, err
	}
	params := map[string]json.RawMessage{"name": mustJSON(call.Tool)}
	if call.Arguments != nil {
		params["arguments"] = call.Arguments
	}
	raw, _ := json.Marshal(params)
	cctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	start := time.Now()
	out, err := s.Request(cctx, "tools/call", raw)
	res := Result{Outcome: out, Duration: time.Since(start)}
	if err != nil && ctx.Err() != nil {
		return res, ctx.Err()
	}
	res.Verdict = Classify(out, err)
	if res.Verdict.Fatal() {
		c.drop(gen)
	}
	return res, nil
}

// CallAll makes the calls, jobs at a time, and returns their results in
// the calls' order. A call that broke the transport while others were in
// flight is repeated alone on a fresh server, so the blame lands on the
// call that deserves it whatever the timing.
func (c *Caller) CallAll(ctx context.Context, calls []Call, jobs int) ([]Result, error) {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]Result, len(calls))
	errs := make([]error, len(calls))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs && w < len(calls); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = c.Call(ctx, calls[i])
			}
		}()
	}
feed:
	for i := range calls {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return results, err
	}
	for _, err := range errs {
		if err != nil {
			return results, err
		}
	}
	if jobs == 1 {
		return results, nil
	}
	for i := range results {
		if !results[i].Verdict.Fatal() {
			continue
		}
		r, err := c.Call(ctx, calls[i])
		if err != nil {
			return results, err
		}
		r.Confirmed = true
		results[i] = r
	}
	return results, nil
}

func mustJSON(v any) json.RawMessage {
	raw, _ := json.Marshal(v)
	return raw
}

// Frames converts a call's frames for the report, masked by red, with
// times relative to the first frame (the request), so none is negative.
func Frames(fs []session.Frame, red *redact.Redactor) []rpt.Frame {
	out := make([]rpt.Frame, 0, len(fs))
	var start time.Time
	for _, f := range fs {
		if start.IsZero() || f.Time.Before(start) {
			start = f.Time
		}
	}
	for _, f := range fs {
		raw := red.String(f.Raw)
		dir := "recv"
		if f.Direction == session.Sent {
			dir = "send"
		}
		fr := rpt.Frame{Direction: dir, AtMS: float64(f.Time.Sub(start).Microseconds()) / 1000, Truncated: f.Truncated}
		if !f.Truncated && jsonx.Embeddable([]byte(raw)) {
			fr.Data = json.RawMessage(raw)
		} else {
			fr.Data, _ = json.Marshal(raw)
		}
		out = append(out, fr)
	}
	return out
}
