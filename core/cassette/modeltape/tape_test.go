package modeltape

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

// scripted answers call n with a tool call on even n and text on odd n,
// numbering its answers so a replay that answered from the wrong position
// would show.
type scripted struct{ n int }

func (m *scripted) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	m.n++
	if m.n == 3 {
		return sdk.ChatResponse{}, errors.New("provider said 500 after retries")
	}
	return sdk.ChatResponse{
		Message:    sdk.Message{Role: "assistant", Content: fmt.Sprintf("answer %d to %d messages", m.n, len(req.Messages))},
		StopReason: "end_turn",
		Usage:      sdk.Usage{InputTokens: int64(10 * m.n), OutputTokens: 3},
	}, nil
}

const secret = "sk-live-0123456789abcdef"

func conversation(n int) sdk.ChatRequest {
	req := sdk.ChatRequest{Key: "openai", Model: "gpt-4o", System: "be brief, token " + secret, MaxTokens: 64,
		Tools: []sdk.ToolDef{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}}}
	for i := 0; i < n; i++ {
		req.Messages = append(req.Messages, sdk.Message{Role: "user", Content: fmt.Sprintf("turn %d", i)})
	}
	return req
}

// record runs three calls through a recorder and returns the encoded
// section as it would sit in a cassette file.
func record(t *testing.T, scrub func([]byte) []byte) json.RawMessage {
	t.Helper()
	rec := NewRecorder(scrub)
	m := rec.Wrap(&scripted{}, RunKey("weather", "", "gpt-4o", 0))
	for i := 1; i <= 3; i++ {
		_, _ = m.Complete(context.Background(), conversation(i))
	}
	raw, err := rec.Section().Encode()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestRecordThenReplayAnswersTheSame(t *testing.T) {
	red := redact.New(secret)
	raw := record(t, red.Bytes)
	if strings.Contains(string(raw), secret) {
		t.Fatalf("the secret reached the section:\n%s", raw)
	}
	sec, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(sec, red.Bytes)
	key := RunKey("weather", "", "gpt-4o", 0)
	if !p.Has(key) {
		t.Fatalf("key %q missing from %v", key, sec.Runs)
	}
	m := p.Model(key)
	live := &scripted{}
	for i := 1; i <= 3; i++ {
		want, wantErr := live.Complete(context.Background(), conversation(i))
		got, err := m.Complete(context.Background(), conversation(i))
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("call %d: err %v, recorded %v", i, err, wantErr)
		}
		if err != nil {
			if !strings.Contains(err.Error(), wantErr.Error()) {
				t.Errorf("call %d: error %q does not carry %q", i, err, wantErr)
			}
			continue
		}
		// The tokens are replayed as recorded; the cost is zero, since a
		// replay spends nothing.
		wantUsage := want.Usage
		wantUsage.CostUSD = nil
		gotUsage := got.Usage
		gotUsage.CostUSD = nil
		if got.Message.Content != want.Message.Content || gotUsage != wantUsage || got.StopReason != want.StopReason {
			t.Errorf("call %d: replayed %+v, recorded %+v", i, got, want)
		}
		if got.Usage.CostUSD == nil || *got.Usage.CostUSD != 0 {
			t.Errorf("call %d: replayed cost %v, want 0", i, got.Usage.CostUSD)
		}
	}
	if _, err := m.Complete(context.Background(), conversation(4)); !errors.Is(err, ErrNoRecording) || !strings.Contains(err.Error(), "recorded 3 model calls") {
		t.Errorf("call past the recording: %v", err)
	}
}

func TestReplayOfAChangedRequestFailsWithADiff(t *testing.T) {
	red := redact.New(secret)
	sec, err := Parse(record(t, red.Bytes))
	if err != nil {
		t.Fatal(err)
	}
	m := NewPlayer(sec, red.Bytes).Model(RunKey("weather", "", "gpt-4o", 0))
	req := conversation(1)
	req.Messages[0].Content = "turn zero, reworded"
	_, err = m.Complete(context.Background(), req)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("err = %v, want ErrMismatch", err)
	}
	msg := err.Error()
	for _, want := range []string{"--- recorded", "+++ replayed", `-      "content": "turn 0"`, `+      "content": "turn zero, reworded"`, "call 1"} {
		if !strings.Contains(msg, want) {
			t.Errorf("diff does not hold %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, secret) {
		t.Error("the diff shows the secret")
	}
}

func TestReplayIgnoresTheRoutingKeyAndKeyOrder(t *testing.T) {
	sec, err := Parse(record(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	m := NewPlayer(sec, nil).Model(RunKey("weather", "", "gpt-4o", 0))
	req := conversation(1)
	req.Key = "some-other-plugin"
	req.Tools[0].InputSchema = json.RawMessage(`{"properties":{"text":{"type":"string"}},"type":"object"}`)
	if _, err := m.Complete(context.Background(), req); err != nil {
		t.Fatalf("an equal request with another key order and routing key: %v", err)
	}
}

func TestUnknownRunFailsEveryCall(t *testing.T) {
	sec, _ := Parse(record(t, nil))
	m := NewPlayer(sec, nil).Model(RunKey("weather", "local", "gpt-4o", 1))
	_, err := m.Complete(context.Background(), conversation(1))
	if !errors.Is(err, ErrNoRecording) || !strings.Contains(err.Error(), `"weather [local/gpt-4o] #2"`) {
		t.Errorf("err = %v", err)
	}
}

func TestEncodeIsDeterministic(t *testing.T) {
	a, b := record(t, nil), record(t, nil)
	if string(a) != string(b) {
		t.Errorf("two recordings of the same run differ:\n%s\n---\n%s", a, b)
	}
}

func TestParseRejectsBadSections(t *testing.T) {
	for name, raw := range map[string]string{
		"version":       `{"version": 9, "runs": {}}`,
		"no request":    `{"version": 1, "runs": {"a": [{"response": {}}]}}`,
		"no answer":     `{"version": 1, "runs": {"a": [{"request": {}}]}}`,
		"not an object": `[1]`,
	} {
		if _, err := Parse(json.RawMessage(raw)); !errors.Is(err, ErrBadSection) {
			t.Errorf("%s: err = %v, want ErrBadSection", name, err)
		}
	}
	if s, err := Parse(nil); s != nil || err != nil {
		t.Errorf("absent section: %v, %v", s, err)
	}
}

func TestRetriedRunReplacesItsRecording(t *testing.T) {
	rec := NewRecorder(nil)
	key := RunKey("t", "", "m", 0)
	_, _ = rec.Wrap(&scripted{}, key).Complete(context.Background(), conversation(1))
	_, _ = rec.Wrap(&scripted{}, key).Complete(context.Background(), conversation(2))
	if xs := rec.Section().Runs[key]; len(xs) != 1 || !strings.Contains(string(xs[0].Request), "turn 1") {
		t.Errorf("runs[%q] = %s", key, xs)
	}
}
