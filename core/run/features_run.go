package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// featureRun is one capturing test's exchange with its server: the
// requests around its call (logging/setLevel, resources/subscribe, the
// trigger, resources/unsubscribe) and what the server sent meanwhile.
type featureRun struct {
	r     *runner
	t     *plan.Test
	sess  *session.Session
	res   *rpt.Test
	start time.Time
	// frames are those of the requests other than the test's own call.
	frames []session.Frame
	// capture records what the server sends during the test.
	capture *session.Capture
}

// obtainFeatures gets the answer of a test that captures what its server
// sends (wantsFeatures): alone on the session, with a capture running,
// never from cache. A problem before the test's own call (a capability
// the server lacks, a failed setLevel or subscribe) fills res as errored
// and returns no outcome; a transport failure of the call itself is the
// error, as with obtain.
func (r *runner) obtainFeatures(ctx context.Context, t *plan.Test, q servers.Request, res *rpt.Test) (*session.Session, *session.Outcome, *features, error) {
	sess, err := r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "server_start", Message: r.opts.Redact.String(err.Error())}
		return nil, nil, nil, nil
	}
	defer r.servers.Hold(t.Suite, t.Server, t.ProtocolVersion, true)()
	fr := &featureRun{r: r, t: t, sess: sess, res: res, start: time.Now()}
	f := &features{}
	var client *config.ClientMocks
	if t.Kind == plan.KindTool {
		client = t.Tool.Client
		if t.Tool.Progress {
			f.token = progressToken(t)
		}
	}
	if t.Kind == plan.KindResource && t.Resource.Subscribe != nil {
		f.uri = q.Name // captures filled in
	}
	capture, err := sess.StartCapture(session.CaptureOptions{Mocks: servers.MocksOf(client)})
	if err != nil {
		fr.fail("capture", err.Error())
		return sess, nil, nil, nil
	}
	defer capture.Stop()
	fr.capture = capture

	if !fr.before(ctx, capture, f) {
		fr.res.Frames = r.frames(mergeFrames(fr.frames, capture.Frames()), fr.start)
		return sess, nil, nil, nil
	}
	out, err := fr.call(ctx, q, f)
	switch {
	case f.stopListen != nil:
		f.stopListen()
	case err == nil && t.Kind == plan.KindResource && t.Resource.Subscribe != nil:
		// Best effort: the test is judged on what it read.
		fr.request(ctx, "resources/unsubscribe", map[string]string{"uri": f.uri}, true)
	}
	capture.Stop()
	f.events = capture.Events()
	if out != nil {
		out.Frames = mergeFrames(fr.frames, out.Frames, capture.Frames())
	}
	return sess, out, f, err
}

// before makes the requests that precede the test's call; false means
// the test has errored (res says why).
func (fr *featureRun) before(ctx context.Context, capture *session.Capture, f *features) bool {
	switch fr.t.Kind {
	case plan.KindTool:
		if lvl := fr.t.Tool.LogLevel; lvl != "" {
			if !fr.capable("logging", "log_level", "logging") {
				return false
			}
			if fr.modern() {
				// The modern era asks for a level per request.
				f.logLevel = lvl
				return true
			}
			if _, ok := fr.request(ctx, "logging/setLevel", map[string]string{"level": lvl}, false); !ok {
				return false
			}
		}
	case plan.KindResource:
		if sub := fr.t.Resource.Subscribe; sub != nil {
			return fr.subscribe(ctx, capture, sub, f)
		}
	}
	return true
}

// subscribe subscribes to the test's URI, makes the trigger call and
// waits for the updates. Too few updates is not an error: f.shortfall
// fails the test once it is judged.
func (fr *featureRun) subscribe(ctx context.Context, capture *session.Capture, sub *config.Subscribe, f *features) bool {
	uri := f.uri
	if !fr.capable("resources.subscribe", "subscribe", "resources", "subscribe") {
		return false
	}
	if fr.modern() {
		if !fr.listen(ctx, capture, f) {
			return false
		}
	} else if _, ok := fr.request(ctx, "resources/subscribe", map[string]string{"uri": uri}, false); !ok {
		return false
	}
	if tr := sub.Trigger; tr != nil && !fr.trigger(ctx, tr) {
		return false
	}
	wctx, cancel := context.WithTimeout(ctx, time.Duration(sub.WaitMS)*time.Millisecond)
	defer cancel()
	count := func(evs []session.Event) int {
		n := 0
		for _, e := range evs {
			if isUpdateOf(e, uri) {
				n++
			}
		}
		return n
	}
	err := capture.Wait(wctx, func(evs []session.Event) bool { return count(evs) >= sub.MinUpdates })
	switch {
	case err == nil:
		return true
	case ctx.Err() != nil:
		fr.fail(callErrorKind(ctx.Err()), "interrupted while waiting for resource updates")
		return false
	case !errors.Is(err, context.DeadlineExceeded):
		fr.fail(callErrorKind(err), "waiting for resource updates: "+err.Error())
		return false
	}
	evs := capture.Events()
	f.shortfall = fmt.Sprintf("waited %d ms for %d notifications/resources/updated for %s, got %d; the server sent %s",
		sub.WaitMS, sub.MinUpdates, uri, count(evs), describeEvents(evs))
	return true
}

// describeEvents lists what a server sent, for a failure message.
func describeEvents(evs []session.Event) string {
	if len(evs) == 0 {
		return "nothing"
	}
	var parts []string
	for _, e := range evs {
		s := e.Method
		if len(e.Params) > 0 {
			s += " " + cutText(string(e.Params), 200)
		}
		parts = append(parts, s)
		if len(parts) == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(evs)-10))
			break
		}
	}
	return strings.Join(parts, "; ")
}

// cutText shortens s to at most n bytes, marking the cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// trigger makes a subscribe block's tool call, which must succeed.
func (fr *featureRun) trigger(ctx context.Context, tr *config.Trigger) bool {
	cctx, cancel := context.WithTimeout(ctx, fr.t.Timeout)
	defer cancel()
	out, err := fr.sess.CallTool(cctx, tr.Tool, tr.Args)
	fr.observe("tools/call", toolParams(tr.Tool, tr.Args, nil), out, err)
	label := fmt.Sprintf("the trigger tool %q", tr.Tool)
	switch {
	case err != nil:
		fr.fail(callErrorKind(err), label+": "+err.Error())
	case out.RPCError != nil:
		fr.fail("trigger", label+" answered "+out.RPCError.Error())
	case out.IsError():
		fr.fail("trigger", label+" returned isError: true: "+cutText(string(out.Result), 500))
	default:
		return true
	}
	return false
}

// call makes the test's own request; a tool test with progress sends its
// token in _meta, and in the modern era one with a log level its level.
func (fr *featureRun) call(ctx context.Context, q servers.Request, f *features) (*session.Outcome, error) {
	cctx, cancel := context.WithTimeout(ctx, fr.t.Timeout)
	defer cancel()
	fields := map[string]string{}
	if f.token != "" {
		fields["progressToken"] = f.token
	}
	if f.logLevel != "" {
		fields[metaLogLevel] = f.logLevel
	}
	if q.Method != servers.MethodToolsCall || len(fields) == 0 {
		out, err := q.Send(cctx, fr.sess)
		fr.observe(q.Method, q.Params(), out, err)
		return out, err
	}
	meta, _ := json.Marshal(fields)
	out, err := fr.sess.CallToolWithMeta(cctx, q.Name, q.Args, meta)
	fr.observe(q.Method, toolParams(q.Name, q.Args, meta), out, err)
	return out, err
}

// request makes one of the requests around the test's call. Unless
// bestEffort, a failure errors the test.
func (fr *featureRun) request(ctx context.Context, method string, params any, bestEffort bool) (*session.Outcome, bool) {
	p, _ := json.Marshal(params)
	cctx, cancel := context.WithTimeout(ctx, fr.t.Timeout)
	defer cancel()
	out, err := fr.sess.Request(cctx, method, p)
	fr.observe(method, p, out, err)
	if out != nil {
		fr.frames = append(fr.frames, out.Frames...)
	}
	label := method + " " + string(p)
	switch {
	case bestEffort:
	case err != nil:
		fr.fail(callErrorKind(err), label+": "+err.Error())
		return nil, false
	case out.RPCError != nil:
		fr.fail("rpc_error", label+" answered "+out.RPCError.Error())
		return nil, false
	}
	return out, true
}

// observe tells Options.OnCall of a request (mcptest record).
func (fr *featureRun) observe(method string, params json.RawMessage, out *session.Outcome, err error) {
	if fr.r.opts.OnCall != nil {
		fr.r.opts.OnCall(fr.t.Suite, fr.t.Server, fr.sess, method, params, fr.withCaptured(out), err)
	}
}

// withCaptured returns out with the frames the capture recorded while its
// request was in flight (what the server sent outside the request's own
// stream), for mcptest record: a cassette replays them with the answer.
func (fr *featureRun) withCaptured(out *session.Outcome) *session.Outcome {
	if out == nil || fr.capture == nil || len(out.Frames) == 0 {
		return out
	}
	from, to := out.Frames[0].Time, out.Frames[len(out.Frames)-1].Time
	var during []session.Frame
	for _, f := range fr.capture.Frames() {
		if !f.Time.Before(from) && !f.Time.After(to) {
			during = append(during, f)
		}
	}
	if len(during) == 0 {
		return out
	}
	o := *out
	o.Frames = mergeFrames(out.Frames, during)
	return &o
}

// toolParams are the params of a tools/call as sent.
func toolParams(name string, args, meta json.RawMessage) json.RawMessage {
	p := map[string]any{"name": name, "arguments": servers.ArgsOrEmpty(args)}
	if meta != nil {
		p["_meta"] = meta
	}
	b, _ := jsonx.Encode(p)
	return b
}

// capable checks the server declared the capability at path (its last
// element a flag that must be true when there are two) before a test
// uses what it governs; if not, the test errors saying so.
func (fr *featureRun) capable(name, field string, path ...string) bool {
	raw := fr.sess.ServerCapabilities()
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(raw, &caps)
	v, ok := caps[path[0]]
	ok = ok && string(v) != "null"
	if ok && len(path) == 2 {
		var sub map[string]json.RawMessage
		_ = json.Unmarshal(v, &sub)
		ok = string(sub[path[1]]) == "true"
	}
	if ok {
		return true
	}
	declared := string(raw)
	if declared == "" {
		declared = "none"
	}
	fr.fail("capability", fmt.Sprintf("server %q does not declare the %s capability, which %s needs (it declared: %s)",
		fr.t.Server.Name, name, field, cutText(declared, 500)))
	return false
}

// fail errors the test with kind and msg.
func (fr *featureRun) fail(kind, msg string) {
	fr.res.Status = rpt.StatusErrored
	fr.res.Error = &rpt.Error{Kind: kind, Message: fr.r.opts.Redact.String(msg)}
	fr.res.Stderr = fr.r.stderrTail(fr.sess)
}

// verdict fails a judged test whose subscription did not see the updates
// it waited for.
func (f *features) verdict(res *rpt.Test) {
	if f == nil || f.shortfall == "" || res.Status == rpt.StatusErrored {
		return
	}
	res.Status = rpt.StatusFailed
	res.Error = &rpt.Error{Kind: "subscribe", Message: f.shortfall}
}
