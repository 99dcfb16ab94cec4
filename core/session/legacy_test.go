//go:build unix

package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestTransportMismatch: the chosen transport is used or the start fails;
// there is no silent fallback.
func TestTransportMismatch(t *testing.T) {
	sseURL, _ := startDemoURL(t, "--sse")
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: sseURL, Transport: TransportStreamable})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "HTTP 405") {
		t.Errorf("streamable against an SSE server: %v", err)
	}

	httpURL, _ := startDemoURL(t, "--http")
	start := time.Now()
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: httpURL, Transport: TransportSSE, InitTimeout: 300 * time.Millisecond})
	if !isErr(err, ErrTimeout) || !strings.Contains(err.Error(), "no endpoint event") {
		t.Errorf("SSE against a Streamable HTTP server: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	// A URL that is not an event stream at all.
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: strings.TrimSuffix(httpURL, "/mcp") + "/nothing", Transport: TransportSSE})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("404 stream: %v", err)
	}
}
