package httpwire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// Backoff of the readiness poll.
const (
	readyFirstDelay = 100 * time.Millisecond
	readyMaxDelay   = 2 * time.Second
)

// waitForReady polls cfg.WaitForReady with GET until it answers 2xx, with
// exponential backoff, for at most ReadyTimeout. A path is resolved
// against the server's URL. Custom headers and credentials go only to the
// server's own origin: a health check elsewhere must not receive them.
func (h *conn) waitForReady(ctx context.Context) error {
	target, err := h.url.Parse(h.cfg.WaitForReady)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") {
		return fmt.Errorf("url server %q: wait_for_ready %q is not an http(s) URL or path", h.cfg.Name, h.cfg.WaitForReady)
	}
	sameOrigin := target.Scheme == h.url.Scheme && target.Host == h.url.Host
	ctx, cancel := context.WithTimeout(ctx, h.cfg.ReadyTimeout)
	defer cancel()
	start := time.Now()
	delay := readyFirstDelay
	last := "no attempt"
	for attempt := 1; ; attempt++ {
		status, err := h.probeReady(ctx, target.String(), sameOrigin)
		if err == nil && status >= 200 && status < 300 {
			return nil
		}
		switch {
		case err != nil && ctx.Err() != nil:
			// Cut short by the overall deadline: the previous answer is
			// the informative one.
		case err != nil:
			last = err.Error()
		default:
			last = fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
		}
		remaining := time.Until(start.Add(h.cfg.ReadyTimeout))
		if remaining <= 0 || !wire.SleepCtx(min(delay, remaining), ctx.Done(), nil) {
			if errors.Is(ctx.Err(), context.Canceled) {
				return fmt.Errorf("server %q: waiting for %s: %w", h.cfg.Name, target, ctx.Err())
			}
			return fmt.Errorf("server %q: %w: %s did not answer 2xx in %s (%d attempts; last: %s)",
				h.cfg.Name, wire.ErrTimeout, target, time.Since(start).Round(time.Millisecond), attempt, last)
		}
		delay = min(2*delay, readyMaxDelay)
	}
}

// probeReady sends one readiness GET and returns its status.
func (h *conn) probeReady(ctx context.Context, target string, sameOrigin bool) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.HTTP.Timeout)
	defer cancel()
	var req *http.Request
	var err error
	if sameOrigin {
		req, err = h.newRequest(ctx, http.MethodGet, target, nil)
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err == nil && !h.cfg.HTTP.NoUserAgent {
			req.Header.Set("User-Agent", "mcptest/"+h.cfg.ClientVersion)
		}
	}
	if err != nil {
		return 0, err
	}
	resp, err := h.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, err
	}
	// Not read: a URL that streams (an MCP endpoint's GET) would hold the
	// poll until the HTTP timeout.
	resp.Body.Close()
	return resp.StatusCode, nil
}
