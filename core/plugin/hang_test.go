package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// stalling never answers an item whose argument is "hang": it ignores its
// context, as a stuck plugin would, until release is closed at the end of
// the test. It passes every other item. hanging receives a value, when
// there is room, each time a "hang" item arrives.
type stalling struct{ release, hanging chan struct{} }

func (s stalling) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if string(in.Argument) == `"hang"` {
		select {
		case s.hanging <- struct{}{}:
		default:
		}
		<-s.release
		return sdk.MatchResult{}, errors.New("released")
	}
	return sdk.Pass(), nil
}

// newStalling returns a stalling matcher; call unstick once the host's
// cleanup is registered, so stuck calls end before the plugin is stopped.
func newStalling(t *testing.T) (s stalling, unstick func()) {
	s = stalling{release: make(chan struct{}), hanging: make(chan struct{}, 1)}
	return s, func() { t.Cleanup(func() { close(s.release) }) }
}

func stallReq(f *plugin.Found, test, arg string) plugin.MatchRequest {
	return plugin.MatchRequest{Plugin: f, Key: "stall", Actual: json.RawMessage(`1`), Argument: json.RawMessage(arg),
		Options: sdk.MatchOptions{TestName: test}}
}

const hangTimeout = 300 * time.Millisecond

func TestHostRestartsAPluginOnceAfterAHang(t *testing.T) {
	st, unstick := newStalling(t)
	p := &sdk.Plugin{Name: "stall", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"stall": st}}
	h, l := newTestHost(t, plugin.HostOptions{CallTimeout: hangTimeout}, p)
	unstick()
	f := foundFor(p)
	ctx := context.Background()

	out := h.Match(ctx, []plugin.MatchRequest{stallReq(f, "first hang", `"hang"`)})
	err := out[0].Err
	if !errors.Is(err, plugin.ErrPluginHung) {
		t.Fatalf("want ErrPluginHung, got %v", err)
	}
	for _, want := range []string{"stall@1.0.0", "no answer within 300ms (--plugin-timeout)", `test "first hang"`, "started again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("hang error lacks %q: %v", want, err)
		}
	}
	// The remaining work goes to a fresh process and is judged.
	out = h.Match(ctx, []plugin.MatchRequest{stallReq(f, "after", `1`), stallReq(f, "after", `2`)})
	for i, o := range out {
		if o.Err != nil || !o.Pass {
			t.Fatalf("item %d after the restart: %+v", i, o)
		}
	}
	if n := l.Starts("stall"); n != 2 {
		t.Fatalf("plugin started %d times, want 2 (once, and once after the hang)", n)
	}

	// A second hang stops it for good.
	out = h.Match(ctx, []plugin.MatchRequest{stallReq(f, "second hang", `"hang"`)})
	if !errors.Is(out[0].Err, plugin.ErrPluginHung) || !strings.Contains(out[0].Err.Error(), `test "second hang"`) {
		t.Fatalf("second hang: %v", out[0].Err)
	}
	out = h.Match(ctx, []plugin.MatchRequest{stallReq(f, "never sent", `1`)})
	err = out[0].Err
	want := `plugin stall@1.0.0 was stopped after it hung on test "second hang"`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("work after the second hang: want %q, got %v", want, err)
	}
	// That item was never sent: it must not claim a deadline of its own.
	if strings.Contains(err.Error(), "did not answer in time") || strings.Contains(err.Error(), "never sent") {
		t.Errorf("an unsent item carries a hang message: %v", err)
	}
	if !errors.Is(err, plugin.ErrPluginHung) {
		t.Errorf("a stopped plugin should still match ErrPluginHung: %v", err)
	}
	if n := l.Starts("stall"); n != 2 {
		t.Fatalf("plugin started %d times, want no third start", n)
	}
}

// bystander blocks the first item it gets until its call is abandoned
// (the process is stopped under it) and passes every later one.
type bystander struct {
	stalling
	calls atomic.Int32
}

func (b *bystander) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if string(in.Argument) == `"wait"` && b.calls.Add(1) == 1 {
		<-ctx.Done()
		return sdk.MatchResult{}, ctx.Err()
	}
	return b.stalling.Match(ctx, in)
}

func TestHostRetriesWorkCutShortByAnotherCallsHang(t *testing.T) {
	const timeout = time.Second
	st, unstick := newStalling(t)
	b := &bystander{stalling: st}
	p := &sdk.Plugin{Name: "stall", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"stall": b}}
	h, l := newTestHost(t, plugin.HostOptions{CallTimeout: timeout}, p)
	unstick()
	f := foundFor(p)
	ctx := context.Background()
	if _, err := h.Description(ctx, f); err != nil {
		t.Fatal(err)
	}
	hung := make(chan plugin.MatchOutcome, 1)
	go func() { hung <- h.Match(ctx, []plugin.MatchRequest{stallReq(f, "hangs", `"hang"`)})[0] }()
	within(t, st.hanging, "the hung item to reach the plugin")
	// The bystander goes out a third of the timeout after the hung call
	// reached the plugin, so its own deadline is far off when the host
	// stops the process for the other call's hang. This wait is the
	// scenario (two deadlines apart), not synchronisation: every call has
	// the same timeout, and no event comes between the two deadlines.
	time.Sleep(timeout / 3)
	cut := h.Match(ctx, []plugin.MatchRequest{stallReq(f, "bystander", `"wait"`)})[0]
	if o := <-hung; !errors.Is(o.Err, plugin.ErrPluginHung) {
		t.Fatalf("hung item: %+v", o)
	}
	if cut.Err != nil || !cut.Pass {
		t.Fatalf("an item in flight when another call hung was not sent again: %+v", cut)
	}
	if n := b.calls.Load(); n != 2 {
		t.Errorf("the bystander item reached the plugin %d times, want 2", n)
	}
	if n := l.Starts("stall"); n != 2 {
		t.Fatalf("plugin started %d times, want 2", n)
	}
}

func TestHostStartIsNotSpoiledByACancelledCaller(t *testing.T) {
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &countingMatcher{}}}
	h, _ := newTestHost(t, plugin.HostOptions{}, p)
	f := foundFor(p)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	req := []plugin.MatchRequest{{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}}
	if out := h.Match(cancelled, req); out[0].Err == nil {
		t.Fatalf("a cancelled caller got a verdict: %+v", out[0])
	}
	out := h.Match(context.Background(), req)
	if out[0].Err != nil || !out[0].Pass {
		t.Fatalf("the plugin stayed failed after a cancelled caller: %+v", out[0])
	}
}
