package vendor

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

func TestPolicyFromEnv(t *testing.T) {
	t.Setenv(EnvRetries, "5")
	t.Setenv(EnvBackoff, "2ms")
	t.Setenv(EnvMaxWait, "1s")
	p, err := PolicyFromEnv()
	if err != nil || p != (RetryPolicy{Retries: 5, Backoff: 2 * time.Millisecond, MaxWait: time.Second}) {
		t.Fatalf("%+v %v", p, err)
	}
	for env, bad := range map[string]string{EnvRetries: "many", EnvBackoff: "fast", EnvMaxWait: "-1s"} {
		t.Setenv(env, bad)
		if _, err := PolicyFromEnv(); err == nil || !strings.Contains(err.Error(), env) {
			t.Errorf("%s=%s: %v", env, bad, err)
		}
		t.Setenv(env, "")
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{}, 0, false},
	}
	for _, c := range cases {
		if got, ok := retryAfter(c.h, now); got != c.want || ok != c.ok {
			t.Errorf("%v: %v %v, want %v %v", c.h, got, ok, c.want, c.ok)
		}
	}
}

// server answers with the statuses in order, then 200, counting requests
// and checking every resent body is whole.
func server(t *testing.T, statuses []int, header http.Header) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if b, _ := io.ReadAll(r.Body); r.Method == http.MethodPost && string(b) != "payload" {
			t.Errorf("attempt %d got body %q", i+1, b)
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		if i < len(statuses) {
			w.WriteHeader(statuses[i])
			io.WriteString(w, `{"error":{"message":"busy"}}`)
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestTransportRetries(t *testing.T) {
	c := Client(RetryPolicy{Retries: 3, Backoff: time.Millisecond, MaxWait: time.Second})
	srv, n := server(t, []int{429, 529, 503}, nil)
	ctx, capt := WithCapture(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("payload"))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n.Load() != 4 || capt.Attempts() != 4 || string(capt.Head()) != string(body) {
		t.Fatalf("status %d after %d requests; capture %d %q", resp.StatusCode, n.Load(), capt.Attempts(), capt.Head())
	}

	// Out of retries: the last error comes back.
	srv, n = server(t, []int{500, 500, 500, 500, 500}, nil)
	resp, err = c.Post(srv.URL, "text/plain", strings.NewReader("payload"))
	if err != nil || resp.StatusCode != 500 || n.Load() != 4 {
		t.Fatalf("%v %v after %d", resp, err, n.Load())
	}
	resp.Body.Close()

	// Not retried: a client error, and a server that says not to.
	for _, tc := range []struct {
		status int
		h      http.Header
	}{{400, nil}, {503, http.Header{"X-Should-Retry": {"false"}}}} {
		srv, n = server(t, []int{tc.status}, tc.h)
		resp, err = c.Post(srv.URL, "text/plain", strings.NewReader("payload"))
		if err != nil || resp.StatusCode != tc.status || n.Load() != 1 {
			t.Fatalf("%d: %v %v after %d", tc.status, resp, err, n.Load())
		}
		resp.Body.Close()
	}

	// A wait the context does not allow ends the call.
	srv, _ = server(t, []int{429}, http.Header{"Retry-After": {"0.5"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if _, err := c.Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestFailMessages(t *testing.T) {
	ep := sdk.Endpoint{APIKey: "sk-secret-1234", KeyEnv: "X_API_KEY"}
	c := &Capture{status: 401, attempts: 1, head: []byte(`{"error":{"message":"bad key sk-secret-1234"}}`)}
	err := Fail("acme", ep, c, errors.New("sdk said sk-secret-1234"))
	if !errors.Is(err, ErrAuth) || err.Error() != "acme: the vendor refused the key: HTTP 401: bad key [REDACTED]; check the key in X_API_KEY (value masked)" {
		t.Fatalf("401: %v", err)
	}
	c = &Capture{status: 200, attempts: 1, head: []byte("\x00garbage sk-secret-1234 " + strings.Repeat("x", 400))}
	err = Fail("acme", ep, c, errors.New("invalid character"))
	if !errors.Is(err, ErrMalformed) || strings.Contains(err.Error(), "sk-secret") || !strings.Contains(err.Error(), `"\x00garbage [REDACTED] xxx`) || !strings.HasSuffix(err.Error(), "…") {
		t.Fatalf("malformed: %v", err)
	}
	err = Fail("acme", ep, &Capture{}, errors.New("dial tcp: connection refused"))
	if !errors.Is(err, ErrVendor) || !strings.Contains(err.Error(), "no reply from the vendor: dial tcp") {
		t.Fatalf("network: %v", err)
	}
}
