package vendor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Environment variables tuning retries, read once by each plugin. They
// exist so tests need not wait real seconds, and so CI can be stricter.
const (
	// EnvBackoff is the first backoff (a Go duration, default 500ms); each
	// retry doubles it.
	EnvBackoff = "MCPTEST_PROVIDER_BACKOFF"
	// EnvRetries is how many times a call is retried (default 3).
	EnvRetries = "MCPTEST_PROVIDER_RETRIES"
	// EnvMaxWait bounds one wait (default 30s): a retry-after asking for
	// longer ends the retries instead.
	EnvMaxWait = "MCPTEST_PROVIDER_MAX_WAIT"
)

// RetryPolicy says when and how long to wait before sending a request
// again.
type RetryPolicy struct {
	// Retries is the most times one request is sent again.
	Retries int
	// Backoff is the first wait when the vendor names none; it doubles.
	Backoff time.Duration
	// MaxWait bounds one wait.
	MaxWait time.Duration
}

// PolicyFromEnv is the default policy with the environment's overrides;
// a malformed value is an error naming the variable.
func PolicyFromEnv() (RetryPolicy, error) {
	p := RetryPolicy{Retries: 3, Backoff: 500 * time.Millisecond, MaxWait: 30 * time.Second}
	if v := os.Getenv(EnvRetries); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 20 {
			return p, fmt.Errorf("%s=%q: want a whole number from 0 to 20", EnvRetries, v)
		}
		p.Retries = n
	}
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{{EnvBackoff, &p.Backoff}, {EnvMaxWait, &p.MaxWait}} {
		if v := os.Getenv(d.env); v != "" {
			x, err := time.ParseDuration(v)
			if err != nil || x < 0 || x > 10*time.Minute {
				return p, fmt.Errorf("%s=%q: want a duration from 0 to 10m, such as 500ms", d.env, v)
			}
			*d.dst = x
		}
	}
	return p, nil
}

// retryable reports whether a reply of this status is worth sending again:
// timeouts, conflicts, rate limits, server errors and Anthropic's 529
// "overloaded".
func retryable(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict || code == http.StatusTooManyRequests || code >= 500
}

// retryAfter reads the vendor's requested wait: retry-after-ms, then
// retry-after in seconds or as an HTTP date. ok is false when none is given.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// Transport sends requests through next (http.DefaultTransport when nil),
// retrying per policy, and records every reply in the request's Capture.
type Transport struct {
	Policy RetryPolicy
	Next   http.RoundTripper
}

// drainLimit bounds what is read from a reply that is being retried, so
// the connection can be reused without reading an endless body.
const drainLimit = 64 << 10

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	capt := captureOf(req.Context())
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(req.Context())
			if req.Body != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, fmt.Errorf("resend request: %w", err)
				}
				r.Body = body
			}
		}
		resp, err := next.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		capt.record(resp, attempt+1)
		wait, ok := t.wait(req, resp, attempt)
		if !ok {
			capt.wrapBody(resp)
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, drainLimit))
		resp.Body.Close()
		if err := sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// wait decides whether to retry resp and after how long.
func (t *Transport) wait(req *http.Request, resp *http.Response, attempt int) (time.Duration, bool) {
	if !retryable(resp.StatusCode) || attempt >= t.Policy.Retries || resp.Header.Get("X-Should-Retry") == "false" {
		return 0, false
	}
	if req.Body != nil && req.GetBody == nil {
		return 0, false
	}
	d, named := retryAfter(resp.Header, time.Now())
	if !named {
		d = t.Policy.Backoff << attempt
	}
	if d > t.Policy.MaxWait {
		if named {
			// Waiting longer than allowed would hold the run; the
			// reply goes back as the error it is.
			return 0, false
		}
		d = t.Policy.MaxWait
	}
	return d, true
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Client is an HTTP client on a retrying transport. There is no overall
// timeout: every call runs under the host's call deadline.
func Client(p RetryPolicy) *http.Client {
	return &http.Client{Transport: &Transport{Policy: p}}
}
