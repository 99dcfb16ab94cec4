package run

import (
	"context"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// requestOf builds the request of a tool, resource or prompt test, with
// the captures it uses filled in.
func (r *runner) requestOf(t *plan.Test) (servers.Request, error) {
	switch t.Kind {
	case plan.KindResource:
		uri, err := r.caps.ResolveText(t, t.Resource.URI)
		return servers.Request{Method: servers.MethodResourcesRead, Name: uri, Version: t.ProtocolVersion, Trial: t.Trial}, err
	case plan.KindPrompt:
		args, err := r.caps.Resolve(t, t.Prompt.Args)
		return servers.Request{Method: servers.MethodPromptsGet, Name: t.Prompt.Prompt, Args: args, Version: t.ProtocolVersion, Trial: t.Trial}, err
	case plan.KindCompletion:
		params, err := r.caps.Resolve(t, t.Completion.Params())
		return servers.Request{Method: methodComplete, Raw: params, Version: t.ProtocolVersion, Trial: t.Trial}, err
	}
	args, err := r.caps.Resolve(t, t.Tool.Args)
	return servers.Request{Method: servers.MethodToolsCall, Name: t.Tool.Tool, Args: args, Version: t.ProtocolVersion, Trial: t.Trial}, err
}

// send makes a request through the result cache (a plain call when caching
// is off).
func (r *runner) send(ctx context.Context, suite *config.Suite, srv *config.Server, sess *session.Session, q servers.Request) (*session.Outcome, bool, error) {
	return r.cache.Do(ctx, suite, srv, sess, q, r.redactOutcome, func() (*session.Outcome, error) {
		out, err := q.Send(ctx, sess)
		if r.opts.OnCall != nil {
			r.opts.OnCall(suite, srv, sess, q.Method, q.Params(), out, err)
		}
		return out, err
	})
}

// obtain gets the test's answer: synthesised from a fixture for a tool
// test with inject_error (no server is started: sess is nil), otherwise
// from the server, through the result cache. A server that does not start
// fills res (its Status is then set) and returns nothing.
func (r *runner) obtain(ctx context.Context, t *plan.Test, q servers.Request, res *rpt.Test) (sess *session.Session, out *session.Outcome, hit bool, err error) {
	if t.Kind == plan.KindTool && t.Tool.InjectError != "" {
		out, err = injectedOutcome(t)
		if err != nil {
			res.Status = rpt.StatusErrored
			res.Error = &rpt.Error{Kind: "inject_error", Message: err.Error()}
		}
		return nil, out, false, nil
	}
	sess, err = r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "server_start", Message: r.opts.Redact.String(err.Error())}
		return nil, nil, false, nil
	}
	if q, err = r.prepare(t, sess, q); err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: errorKind(err), Message: r.opts.Redact.String(err.Error())}
		return sess, nil, false, nil
	}
	// The wait for a request slot is not part of the test's timeout: it
	// depends on the other tests, not on this server.
	select {
	case r.calls <- struct{}{}:
		defer func() { <-r.calls }()
	case <-ctx.Done():
		return sess, nil, false, fmt.Errorf("waiting for a request slot: %w", ctx.Err())
	}
	defer r.servers.Hold(t.Suite, t.Server, t.ProtocolVersion, false)()
	cctx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	out, hit, err = r.send(cctx, t.Suite, t.Server, sess, q)
	if hit && out != nil {
		out.Frames = rebaseFrames(out.Frames, time.Now())
	}
	return sess, out, hit, err
}

// rebaseFrames shifts the frames of an exchange made earlier (by the test
// whose answer a cache hit reuses) so that the first one is at now: the
// report times a test's frames from the test's own start.
func rebaseFrames(fs []session.Frame, now time.Time) []session.Frame {
	if len(fs) == 0 {
		return fs
	}
	shift := now.Sub(fs[0].Time)
	out := make([]session.Frame, len(fs))
	for i, f := range fs {
		f.Time = f.Time.Add(shift)
		out[i] = f
	}
	return out
}

// stderrTail is the redacted tail of the server's stderr, for a failed
// test; "" when the test had no server.
func (r *runner) stderrTail(sess *session.Session) string {
	if sess == nil {
		return ""
	}
	return r.opts.Redact.String(sess.StderrTail(stderrLines))
}
