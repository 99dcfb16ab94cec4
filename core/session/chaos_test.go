//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// startChaos starts the chaos server with flags and closes it when the test
// ends.
func startChaos(t *testing.T, flags ...string) *Session {
	t.Helper()
	return startDemo(t, func(c *StdioConfig) {
		c.Name = "chaos"
		c.Command = append([]string{chaosBin(t)}, flags...)
	})
}

// callWithin calls a tool with a deadline of d.
func callWithin(s *Session, d time.Duration, name, args string) (*Outcome, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return s.CallTool(ctx, name, json.RawMessage(args))
}

func TestDeepResponseIsBadResponseNotTimeout(t *testing.T) {
	s := startChaos(t)
	start := time.Now()
	out, err := callWithin(s, 10*time.Second, "deep", `{}`)
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("err = %v, want ErrBadResponse", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v: the call waited instead of failing on the answer", d)
	}
	if !strings.Contains(err.Error(), "cannot be decoded") || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Errorf("message: %v", err)
	}
	if len(out.Frames) != 2 || !out.Frames[1].Truncated || out.Frames[1].Size < 200_000 {
		t.Errorf("frames: %+v", out.Frames)
	}
	// The server is fine; so is the session.
	if got := toolText(t, callTool(t, s, "echo", `{"message":"after"}`).Result); got != "after" {
		t.Errorf("echo after deep = %q", got)
	}
	// Nesting within the limit is an ordinary result.
	if out := callTool(t, s, "deep", `{"depth":5000}`); toolText(t, out.Result) != "deep" {
		t.Errorf("depth 5000: %s", out.Result[:100])
	}
}

func TestWrongIDTimeoutNamesTheStrayResponse(t *testing.T) {
	s := startChaos(t)
	_, err := callWithin(s, 300*time.Millisecond, "wrong_id", `{}`)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "stray answers") || !strings.Contains(err.Error(), `"id":"1000001"`) {
		t.Errorf("message does not show the stray response: %v", err)
	}
	// A later timeout does not blame the old stray.
	_, err = callWithin(s, 200*time.Millisecond, "hang", `{}`)
	if !errors.Is(err, ErrTimeout) || strings.Contains(err.Error(), "stray") {
		t.Errorf("hang: %v", err)
	}
}

// Ids inside the client's own ranges (mcp-go's initialize is 1; the
// session's calls count up from 1,000,001) are stray too when no request
// waits for them: they used to be passed to mcp-go, which dropped them.
func TestStrayAnswerInsideTheClientsRange(t *testing.T) {
	s := startChaos(t)
	for _, id := range []string{"1", "999999", "1000001"} {
		_, err := callWithin(s, 300*time.Millisecond, "wrong_id", `{"id":`+id+`}`)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("id %s: err = %v, want ErrTimeout", id, err)
		}
		if !strings.Contains(err.Error(), "stray answers") || !strings.Contains(err.Error(), `"id":`+id+`,`) {
			t.Errorf("id %s: the timeout does not show the stray answer: %v", id, err)
		}
	}
	// The session still works.
	if got := toolText(t, callTool(t, s, "echo", `{"message":"ok"}`).Result); got != "ok" {
		t.Errorf("echo = %q", got)
	}
}

func TestDuplicateAnswerKeepsTheFirstAndBlamesNothing(t *testing.T) {
	s := startChaos(t)
	if got := toolText(t, callTool(t, s, "duplicate", `{"first":"one","second":"two"}`).Result); got != "one" {
		t.Errorf("duplicate = %q, want the first answer", got)
	}
	if got := toolText(t, callTool(t, s, "echo", `{"message":"mine"}`).Result); got != "mine" {
		t.Errorf("next call got %q", got)
	}
	// The repeated answer is a stray, but it came before the next call
	// started: that call's diagnosis does not blame it.
	_, err := callWithin(s, 200*time.Millisecond, "hang", `{}`)
	if strings.Contains(err.Error(), "stray") {
		t.Errorf("duplicate reported as a stray: %v", err)
	}
}

func TestGarbageInsteadOfAnswerTimeoutShowsIt(t *testing.T) {
	s := startChaos(t, "-banner")
	if got := toolText(t, callTool(t, s, "garbage", `{"answer":true}`).Result); got != "answered" {
		t.Errorf("garbage then answer = %q", got)
	}
	_, err := callWithin(s, 300*time.Millisecond, "garbage", `{"lines":2}`)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "non-JSON output on stdout") || !strings.Contains(msg, `garbage: this line is not JSON {\x1b[7m`) {
		t.Errorf("message does not show the garbage: %v", err)
	}
	if strings.Contains(msg, "banner") || strings.ContainsRune(msg, 0x1b) {
		t.Errorf("message shows output from before the call, or a raw escape: %q", msg)
	}
}
