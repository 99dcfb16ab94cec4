//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/httpwire"
)

// bigBodyServer answers initialize, and answers every tools/call with a
// result whose text is 768 KiB, sent in two parts: all of it but the end,
// then (once release is closed) the end. With sse set the answer is one
// SSE event, else a JSON body.
func bigBodyServer(t *testing.T, sse bool, release <-chan struct{}) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &m)
		switch m.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}}`, m.ID)
			return
		case "tools/call":
		default:
			w.WriteHeader(http.StatusAccepted)
			return
		}
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID)
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			head = "data: " + head
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		_, _ = io.WriteString(w, head+strings.Repeat("x", 768<<10))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		tail := `"}]}}`
		if sse {
			tail += "\n\n"
		}
		_, _ = io.WriteString(w, tail)
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// Four big bodies read at once may not hold more than the session's
// budget: with room for two, at least two calls fail at once with a
// message that names the budget, and those that got room complete. (Which
// readers get room depends on how their reads interleave: a third can run
// into the budget before the first two failures have given theirs back.)
func TestHTTPBodiesShareABudget(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			release := make(chan struct{})
			u := bigBodyServer(t, sse, release)
			s := startURLSession(t, HTTPConfig{URL: u, MaxMessageBytes: 1 << 20, MaxBufferedBytes: 2<<20 + 2})
			type result struct {
				out *Outcome
				err error
			}
			results := make(chan result, 4)
			for range 4 {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer cancel()
					out, err := s.CallTool(ctx, "big", nil)
					results <- result{out, err}
				}()
			}
			get := func() result {
				select {
				case r := <-results:
					return r
				case <-time.After(20 * time.Second):
					t.Fatal("no answer")
				}
				return result{}
			}
			overBudget := func(r result) bool {
				if !errors.Is(r.err, ErrBadResponse) || !errors.Is(r.err, httpwire.ErrBodyBudget) {
					return false
				}
				if !strings.Contains(r.err.Error(), "the session's budget of 2 MiB") {
					t.Errorf("message: %v", r.err)
				}
				return true
			}
			// Three bodies of 768 KiB do not fit in 2 MiB: two calls fail
			// before any body can end.
			for range 2 {
				if r := get(); !overBudget(r) {
					t.Fatalf("err = %v, want the budget's", r.err)
				}
			}
			close(release)
			completed := 0
			for range 2 {
				r := get()
				if r.err == nil {
					completed++
					if n := len(toolText(t, r.out.Result)); n != 768<<10 {
						t.Errorf("text of %d bytes", n)
					}
				} else if !overBudget(r) {
					t.Fatalf("err = %v", r.err)
				}
			}
			if completed == 0 {
				t.Error("no call completed: the budget kept room for none")
			}
			// Everything went back. A stream's reader gives its bytes back
			// as it ends, which may be just after its call has returned:
			// Close waits for every reader, so nothing is in flight when
			// the budget is read.
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if used := s.t.(*httpwire.Wire).Held(); used != 0 {
				t.Errorf("%d bytes still held", used)
			}
		})
	}
}
