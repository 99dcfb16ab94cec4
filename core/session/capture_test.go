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

// demoMocks are the server-level mocks of the capture tests.
var demoMocks = &Mocks{
	Roots:       []Root{{URI: "file:///tmp/work", Name: "work"}},
	Sampling:    &SamplingMock{Text: "canned reply"},
	Elicitation: &ElicitationMock{Action: ElicitAcceptDefaults, Content: json.RawMessage(`{"name":"Ada"}`)},
}

// methods lists the events' methods, requests marked with "?".
func methods(evs []Event) []string {
	var out []string
	for _, e := range evs {
		m := e.Method
		if e.Request {
			m += "?"
		}
		out = append(out, m)
	}
	return out
}

// TestServerRequestsAnsweredByMocks: sampling, elicitation and roots
// requests reach the mocks over every transport (mcp-go's Streamable HTTP
// server sends them on the standalone GET stream), the answers reach the
// server, and a capture records question and answer.
func TestServerRequestsAnsweredByMocks(t *testing.T) {
	eachSession(t, ClientOptions{Mocks: demoMocks}, func(t *testing.T, s *Session) {
		c, err := s.StartCapture(CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var streamFrames []Frame
		call := func(name, args, want string) {
			out := callTool(t, s, name, args)
			if !strings.Contains(string(out.Result), want) {
				t.Errorf("%s: %s", name, out.Result)
			}
			// The request and the response are the first and last frames.
			streamFrames = append(streamFrames, out.Frames[1:len(out.Frames)-1]...)
		}
		call("sample", `{"prompt":"hi"}`, `"text":"canned reply"`)
		call("elicit", `{}`, `"content":{"age":36,"name":"Ada"}`)
		call("roots", `{}`, `file:///tmp/work`)
		c.Stop()
		evs := c.Events()
		if got := strings.Join(methods(evs), " "); got != "sampling/createMessage? elicitation/create? roots/list?" {
			t.Fatalf("events: %s", got)
		}
		if !strings.Contains(string(evs[0].Params), `"text":"hi"`) ||
			!strings.HasPrefix(string(evs[0].Response), `{"result":{"content":{"text":"canned reply"`) {
			t.Errorf("sampling event %s -> %s", evs[0].Params, evs[0].Response)
		}
		// Each request and answer is a frame, on the capture when it came
		// outside a call's stream, else in that call's frames (mcp-go's
		// Streamable HTTP server sends elicitation on the call's stream,
		// sampling and roots on the GET stream).
		var sent, recv int
		for _, f := range append(c.Frames(), streamFrames...) {
			switch {
			case f.Direction == Sent && strings.Contains(f.Raw, `"result"`) && !strings.Contains(f.Raw, `"id":1000`):
				sent++
			case f.Direction == Received && strings.Contains(f.Raw, `"method"`):
				recv++
			}
		}
		if sent != 3 || recv != 3 {
			t.Errorf("frames: %d answers, %d requests: %+v", sent, recv, append(c.Frames(), streamFrames...))
		}
	})
}

// TestCaptureMocksOverride: a capture's mocks answer during it; outside
// it, and for features it leaves unset, the session's.
func TestCaptureMocksOverride(t *testing.T) {
	s := startDemo(t, func(c *StdioConfig) { c.Client = ClientOptions{Mocks: demoMocks} })
	c, err := s.StartCapture(CaptureOptions{Mocks: &Mocks{Elicitation: &ElicitationMock{Action: ElicitDecline}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartCapture(CaptureOptions{}); !errors.Is(err, ErrCaptureBusy) {
		t.Fatalf("second capture: %v", err)
	}
	if out := callTool(t, s, "elicit", `{}`); !strings.Contains(string(out.Result), `"action":"decline"`) {
		t.Errorf("elicit in capture: %s", out.Result)
	}
	if out := callTool(t, s, "sample", `{"prompt":"x"}`); toolText(t, out.Result) != "canned reply" {
		t.Errorf("sample in capture: %s", out.Result)
	}
	c.Stop()
	if out := callTool(t, s, "elicit", `{}`); !strings.Contains(string(out.Result), `"action":"accept"`) {
		t.Errorf("elicit after capture: %s", out.Result)
	}
	if n := len(c.Events()); n != 2 {
		t.Errorf("a stopped capture kept collecting: %d events", n)
	}
}

// TestUndeclaredFeatureIsAnError: without a mock, the server's request
// gets a JSON-RPC error, which the server reports.
func TestUndeclaredFeatureIsAnError(t *testing.T) {
	eachSession(t, ClientOptions{}, func(t *testing.T, s *Session) {
		c, _ := s.StartCapture(CaptureOptions{})
		out := callTool(t, s, "sample", `{"prompt":"x"}`)
		c.Stop()
		if !out.IsError() || !strings.Contains(toolText(t, out.Result), "no sampling mock") {
			t.Fatalf("sample: %s", out.Result)
		}
		evs := c.Events()
		if len(evs) != 1 || !strings.Contains(string(evs[0].Response), `"code":-32601`) {
			t.Fatalf("events %+v", evs)
		}
	})
}

// TestProgressAndLogsAttributed: the progress token reaches the server,
// and its notifications, with the log messages the level allows, land on
// the capture in order; over Streamable HTTP they came on the call's own
// stream, so they are also in its frames.
func TestProgressAndLogsAttributed(t *testing.T) {
	eachSession(t, ClientOptions{}, func(t *testing.T, s *Session) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if out, err := s.Request(ctx, "logging/setLevel", json.RawMessage(`{"level":"warning"}`)); err != nil || out.RPCError != nil {
			t.Fatalf("setLevel: %v %+v", err, out)
		}
		c, _ := s.StartCapture(CaptureOptions{})
		out, err := s.CallToolWithMeta(ctx, "progress", json.RawMessage(`{"steps":4}`), json.RawMessage(`{"progressToken":"tok-1"}`))
		if err != nil || toolText(t, out.Result) != "sent 4 progress notifications" {
			t.Fatalf("progress: %v %s", err, out.Result)
		}
		logOut := callTool(t, s, "log", `{}`)
		c.Stop()
		evs := c.Events()
		var got []string
		for _, e := range evs {
			var p struct {
				Token    string `json:"progressToken"`
				Progress int    `json:"progress"`
				Level    string `json:"level"`
			}
			_ = json.Unmarshal(e.Params, &p)
			switch e.Method {
			case "notifications/progress":
				got = append(got, p.Token+":"+string(rune('0'+p.Progress)))
			case "notifications/message":
				got = append(got, p.Level)
			default:
				got = append(got, e.Method)
			}
		}
		want := "tok-1:1 tok-1:2 tok-1:3 tok-1:4 warning error critical alert emergency"
		if strings.Join(got, " ") != want {
			t.Fatalf("events %q\nwant %q", strings.Join(got, " "), want)
		}
		// Every notification is a frame exactly once: in the call's frames
		// when it came on the call's own stream (Streamable HTTP), else on
		// the capture.
		frames := len(c.Frames())
		for _, f := range append(out.Frames, logOut.Frames...) {
			if strings.Contains(f.Raw, `"method":"notifications/`) {
				frames++
			}
		}
		if frames != 9 {
			t.Errorf("%d notification frames, want 9", frames)
		}
	})
}

// TestAmbientFramesWithoutCapture: with no capture, what arrives outside
// a call's stream while it is in flight is in its frames.
func TestAmbientFramesWithoutCapture(t *testing.T) {
	s := startDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.CallToolWithMeta(ctx, "progress", json.RawMessage(`{"steps":2}`), json.RawMessage(`{"progressToken":7}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Frames) != 4 || !strings.Contains(out.Frames[1].Raw, `"progressToken":7`) ||
		!strings.Contains(out.Frames[0].Raw, `"_meta":{"progressToken":7}`) {
		t.Fatalf("frames %+v", out.Frames)
	}
	if _, err := s.CallToolWithMeta(ctx, "echo", json.RawMessage(`{}`), json.RawMessage(`[1]`)); err == nil {
		t.Fatal("a _meta that is not an object was sent")
	}
}

// TestCaptureWaitsForUpdates: notifications sent after the call returned
// (over Streamable HTTP on the GET stream) reach the capture, and Wait
// sees them; Wait gives up with ctx.
func TestCaptureWaitsForUpdates(t *testing.T) {
	eachSession(t, ClientOptions{}, func(t *testing.T, s *Session) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, _ := s.StartCapture(CaptureOptions{})
		defer c.Stop()
		if out, err := s.Request(ctx, "resources/subscribe", json.RawMessage(`{"uri":"demo://counter"}`)); err != nil || out.RPCError != nil {
			t.Fatalf("subscribe: %v %+v", err, out)
		}
		callTool(t, s, "bump", `{"times":2,"delay_ms":50}`)
		updates := func(evs []Event) bool {
			n := 0
			for _, e := range evs {
				if e.Method == "notifications/resources/updated" {
					n++
				}
			}
			return n >= 2
		}
		if err := c.Wait(ctx, updates); err != nil {
			t.Fatalf("wait: %v (events %v)", err, methods(c.Events()))
		}
		short, cancel2 := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel2()
		if err := c.Wait(short, func([]Event) bool { return false }); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("wait for nothing: %v", err)
		}
	})
}
