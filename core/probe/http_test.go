package probe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHTTPVerbatim(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo-Method", r.Method)
		w.Header().Set("X-Echo-Host", r.Host)
		w.Header().Set("X-Echo-Auth", r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c := &HTTPClient{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer x"}}}
	res, err := c.Do(context.Background(), HTTPRequest{Body: []byte(`{"jsonrpc":`), Host: "evil.example"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != http.StatusTeapot || string(res.Body) != `{"jsonrpc":` || res.SSE {
		t.Errorf("response not verbatim: %+v", res)
	}
	if res.Header.Get("X-Echo-Host") != "evil.example" || res.Header.Get("X-Echo-Auth") != "Bearer x" || res.Header.Get("X-Echo-Method") != "POST" {
		t.Errorf("request not as given: %v", res.Header)
	}
}

func TestHTTPNoRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	res, err := (&HTTPClient{URL: srv.URL}).Do(context.Background(), HTTPRequest{Method: http.MethodGet})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != http.StatusTemporaryRedirect {
		t.Errorf("redirect followed: %d", res.Status)
	}
}

func TestHTTPBodyBound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(make([]byte, 1000))
	}))
	defer srv.Close()
	res, err := (&HTTPClient{URL: srv.URL, MaxBody: 100}).Do(context.Background(), HTTPRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Body) != 100 || !res.Truncated {
		t.Errorf("body %d bytes, truncated %v", len(res.Body), res.Truncated)
	}
}

// sseServer writes two events, then holds the stream open until the
// client leaves.
func sseServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		fmt.Fprint(w, "id: 1\ndata:\n\n")
		fmt.Fprint(w, "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
}

func TestHTTPSSEUntil(t *testing.T) {
	srv := sseServer()
	defer srv.Close()
	res, err := (&HTTPClient{URL: srv.URL}).Do(context.Background(), HTTPRequest{
		Until: func(ev *Event) bool { return ev.Data != "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.SSE || len(res.Events) != 2 || !res.Events[0].IsPriming() || res.StreamErr != nil {
		t.Fatalf("response: %+v", res)
	}
}

func TestHTTPSSEDeadline(t *testing.T) {
	srv := sseServer()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := (&HTTPClient{URL: srv.URL}).Do(ctx, HTTPRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 2 || res.StreamErr == nil {
		t.Errorf("want both events and a stream error, got %+v", res)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the deadline was not honoured")
	}
}

func TestHTTPStreamNext(t *testing.T) {
	srv := sseServer()
	defer srv.Close()
	s, err := (&HTTPClient{URL: srv.URL}).Open(context.Background(), HTTPRequest{Method: http.MethodGet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 2; i++ {
		if _, err := s.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := s.Next(ctx); err == nil {
		t.Errorf("a third event appeared from nowhere")
	}
}
