package toolkit

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// TestClassify: results, isError results and -32602 are healthy; any other
// JSON-RPC error, a dead server or transport crashed; a timeout timed out.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		out    *session.Outcome
		err    error
		health Health
		kind   string
		fatal  bool
	}{
		{&session.Outcome{Result: []byte(`{"content":[]}`)}, nil, Healthy, "result", false},
		{&session.Outcome{Result: []byte(`{"content":[],"isError":true}`)}, nil, Healthy, "tool_error", false},
		{&session.Outcome{RPCError: &session.RPCError{Code: -32602, Message: "bad"}}, nil, Healthy, "invalid_params", false},
		{&session.Outcome{RPCError: &session.RPCError{Code: -32603, Message: "boom"}}, nil, Crashed, "rpc_error_-32603", false},
		{&session.Outcome{RPCError: &session.RPCError{Code: -32601, Message: "no"}}, nil, Crashed, "rpc_error_-32601", false},
		{nil, fmt.Errorf("call: %w", session.ErrServerExited), Crashed, "server_exited", true},
		{nil, fmt.Errorf("call: %w", session.ErrTimeout), TimedOut, "timeout", false},
		{nil, fmt.Errorf("call: %w", session.ErrBadResponse), Crashed, "transport", true},
	} {
		v := Classify(c.out, c.err)
		if v.Health != c.health || v.Kind != c.kind || v.Fatal() != c.fatal {
			t.Errorf("Classify(%+v, %v) = %+v; want %s %s fatal=%t", c.out, c.err, v, c.health, c.kind, c.fatal)
		}
	}
}

// TestMayBeDestructive applies the annotation defaults.
func TestMayBeDestructive(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		a    *Annotations
		want bool
	}{
		{nil, true},
		{&Annotations{}, true},
		{&Annotations{ReadOnlyHint: &yes}, false},
		{&Annotations{ReadOnlyHint: &no, DestructiveHint: &no}, false},
		{&Annotations{ReadOnlyHint: &no, DestructiveHint: &yes}, true},
		{&Annotations{DestructiveHint: &no}, false},
	} {
		if got := (&Tool{Annotations: c.a}).MayBeDestructive(); got != c.want {
			t.Errorf("%+v: got %t", c.a, got)
		}
	}
}

// TestFramesStartAtTheRequest: frame times count from the first frame, so
// none is negative (the report schema refuses negative at_ms).
func TestFramesStartAtTheRequest(t *testing.T) {
	t0 := time.Now()
	fs := []session.Frame{
		{Direction: session.Sent, Time: t0, Raw: `{"id":1}`},
		{Time: t0.Add(3 * time.Millisecond), Raw: `{"id":1,"result":{}}`},
	}
	got := Frames(fs, nil)
	if got[0].AtMS != 0 || got[1].AtMS != 3 || got[0].Direction != "send" || got[1].Direction != "recv" {
		t.Errorf("frames %+v", got)
	}
}
