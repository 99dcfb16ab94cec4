//go:build unix

package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestStdioFrameMaskedBeforeTheCut: a secret the server echoes across
// FrameLimit leaves none of its bytes in the cut frame. Masked only after
// the cut (as reports did), its first bytes would stay.
func TestStdioFrameMaskedBeforeTheCut(t *testing.T) {
	const secret = "Q7-stdio-secret-value-0042"
	s, err := StartStdio(context.Background(), StdioConfig{Command: []string{demoBin(t)}, Secrets: []string{secret}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	received := func(out *Outcome) Frame {
		t.Helper()
		for _, f := range out.Frames {
			if f.Direction == Received {
				return f
			}
		}
		t.Fatalf("no frame received: %+v", out.Frames)
		return Frame{}
	}
	// Where the echoed text starts in the answer frame, so the secret can
	// be placed across the cut exactly.
	out, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"PROBE"}`))
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(received(out).Raw, "PROBE")
	if at < 0 {
		t.Fatalf("no echo: %s", received(out).Raw)
	}
	msg := strings.Repeat("x", FrameLimit-at-10) + secret + strings.Repeat("y", 100)
	args, _ := json.Marshal(map[string]string{"message": msg})
	out, err = s.CallTool(ctx, "echo", args)
	if err != nil {
		t.Fatal(err)
	}
	f := received(out)
	if !f.Truncated {
		t.Fatalf("the frame (%d bytes) was not cut", f.Size)
	}
	head, _, _ := strings.Cut(f.Raw, "…[truncated")
	if strings.Contains(head, secret[:4]) || !strings.Contains(head, "x"+Redacted) {
		t.Errorf("frame ends %q", head[len(head)-40:])
	}
}
