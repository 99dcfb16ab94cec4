package eval

import (
	"context"
	"errors"
	"testing"

	"github.com/mcptest/mcptest/core/cassette/modeltape"
	"github.com/mcptest/mcptest/sdk"
)

// echoModel answers each request with its user message, so a replay that
// paired a request with another's answer would show.
type echoModel struct{ calls int }

func (m *echoModel) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	m.calls++
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: "answer to " + req.Messages[0].Content}}, nil
}

func ask(t *testing.T, m modeltape.Model, q string) string {
	t.Helper()
	resp, err := m.Complete(context.Background(), sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: q}}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Message.Content
}

// A judge's calls replay by request, whatever their order: criteria are
// graded concurrently, so the order of a replay differs from the
// recording's. A request the tape never saw fails as not recorded.
func TestTapeReplaysByRequestInAnyOrder(t *testing.T) {
	live := &echoModel{}
	rec := &Tape{Recorder: modeltape.NewRecorder(nil)}
	m := rec.Model("eval one", "gpt-4o", live)
	ask(t, m, "first")
	ask(t, m, "second")
	sec := rec.Recorder.Section()
	if sec == nil || len(sec.Runs) != 2 || live.calls != 2 {
		t.Fatalf("recorded %+v after %d calls", sec, live.calls)
	}

	play := &Tape{Player: modeltape.NewPlayer(sec, nil)}
	m = play.Model("eval one", "gpt-4o", nil)
	if got := ask(t, m, "second"); got != "answer to second" {
		t.Errorf("second: %q", got)
	}
	if got := ask(t, m, "first"); got != "answer to first" {
		t.Errorf("first: %q", got)
	}
	if live.calls != 2 {
		t.Errorf("the replay reached the model")
	}
	_, err := m.Complete(context.Background(), sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "third"}}})
	if !errors.Is(err, modeltape.ErrNoRecording) {
		t.Errorf("an unrecorded request: %v", err)
	}
	// Another eval's tape runs are its own.
	if _, err := play.Model("eval two", "gpt-4o", nil).Complete(context.Background(),
		sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "first"}}}); !errors.Is(err, modeltape.ErrNoRecording) {
		t.Errorf("another eval replayed this one's answer: %v", err)
	}
}

func TestProjectionLine(t *testing.T) {
	for _, c := range []struct {
		p    Projection
		want string
	}{
		{Projection{Evals: 1, Calls: 3, Cost: 0.01234, Priced: true}, "1 eval, 3 judge calls projected (at most $0.0123)"},
		{Projection{Evals: 2, Calls: 1}, "2 evals, 1 judge call projected (cost unknown: a judge model has no price)"},
		{Projection{Evals: 2, Calls: 0, Scorer: 2, Priced: true}, "2 evals, 0 judge calls and 2 scorer calls projected"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
