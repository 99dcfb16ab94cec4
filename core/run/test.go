package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/cassette"
	"github.com/mcptest/mcptest/core/hooks"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run/internal/filewatch"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// responseLimit bounds the envelope kept in the report of a failed test.
const responseLimit = jsonx.EmbedLimit

// stderrLines is how much server stderr a failed test shows.
const stderrLines = 20

// testHeader is the part of a result known before the test runs.
func testHeader(t *plan.Test) rpt.Test {
	h := rpt.Test{
		ID:    t.ID,
		Name:  t.Name,
		File:  t.Suite.File,
		Line:  t.Pos.Line,
		Col:   t.Pos.Col,
		Block: t.Block(),
		// Set for suites that list target_versions only, so reports of
		// other suites keep their shape.
		ProtocolVersion: t.ProtocolVersion,
		Trial:           t.Trial,
		TrialOf:         t.TrialOf,
	}
	if t.Server != nil { // nil for a trajectory test, which talks to no server
		h.Server = t.Server.Name
	}
	if t.Options != nil {
		h.Tags = t.Options.Tags
	}
	if t.Kind == plan.KindTool {
		h.Tool = t.Tool.Tool
	}
	return h
}

// readsOnly reports whether a finished test may leave an after_write
// server's session to the next test, as far as the test itself can tell:
// it passed, and it is of a kind whose requests can only read (the
// session's own record of what was sent decides the rest). Other kinds
// (agents, compliance checks, compositions...) count as writes, and so
// does any test of a suite whose beforeEach or afterEach steps may change
// the world the server sees.
func readsOnly(t *plan.Test, res *rpt.Test) bool {
	if res.Status != rpt.StatusPassed || plan.SuitePerTestHooks(t.Suite) {
		return false
	}
	switch t.Kind {
	case plan.KindTool, plan.KindResource, plan.KindPrompt, plan.KindCompletion, plan.KindList:
		return true
	}
	return false
}

// expectedReads says, before a test runs, whether it will only read and
// which tools it calls: such tests may share an after_write server's
// process with each other (core/servers/afterwrite.go). A tool test with
// client mocks (the server's requests answered), log_level
// (logging/setLevel) or a resource subscription is not expected to.
func expectedReads(t *plan.Test) ([]string, bool) {
	if plan.SuitePerTestHooks(t.Suite) {
		return nil, false
	}
	switch t.Kind {
	case plan.KindTool:
		if t.Tool.LogLevel != "" || t.Tool.Client != nil {
			return nil, false
		}
		return []string{t.Tool.Tool}, true
	case plan.KindResource:
		return nil, t.Resource.Subscribe == nil
	case plan.KindPrompt, plan.KindCompletion, plan.KindList:
		return nil, true
	}
	return nil, false
}

func skipped(t *plan.Test, why string) rpt.Test {
	res := testHeader(t)
	res.Status = rpt.StatusSkipped
	res.Error = &rpt.Error{Kind: "skipped", Message: why}
	return res
}

// runTest calls the tool, judges the result and returns the test's report.
func (r *runner) runTest(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	start := time.Now()
	// Sessions of per_test servers live as long as the test, and those of
	// after_write servers are kept only after a test that could not have
	// changed them (core/servers/lifecycle.go, afterwrite.go). The time
	// spent waiting for an after_write server another test holds is not
	// the test's own.
	ctx, scope := servers.WithTestScope(ctx)
	if tools, ok := expectedReads(t); ok {
		scope.ExpectReads(tools)
	}
	defer func() { res.DurationMS = ms(time.Since(start) - scope.Waited()) }()
	defer func() { scope.Close(r.servers, readsOnly(t, &res)) }()

	switch t.Kind {
	case plan.KindComposition:
		return r.runComposition(ctx, t)
	case plan.KindList:
		return r.runList(ctx, t)
	case plan.KindCompliance:
		return r.runCompliance(ctx, t)
	case plan.KindAgent:
		return r.runAgent(ctx, t)
	case plan.KindTrajectory:
		return r.runTrajectory(ctx, t)
	case plan.KindEval:
		return r.runEval(ctx, t)
	}
	if !r.caps.Await(ctx, t, &res) {
		return res
	}
	q, err := r.requestOf(t)
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "capture", Message: r.opts.Redact.String(err.Error())}
		return res
	}
	// The request transform sees the request as it would be sent
	// (captures filled in) and its output is what is sent and cached.
	q, terr := r.hooks.TransformRequest(ctx, t, q)
	if terr != nil {
		res.Status, res.Error = rpt.StatusFailed, terr
		return res
	}
	// files["path"] targets compare with the files as they were before
	// the call, so they are noted now.
	var fw *filewatch.Watch
	if len(t.Files) > 0 {
		if fw, err = r.watchFiles(ctx, t); err != nil {
			res.Status = rpt.StatusErrored
			res.Error = &rpt.Error{Kind: "files", Message: r.opts.Redact.String(err.Error())}
			return res
		}
	}
	// A test that injects a fixture error gets a synthesised answer and
	// never starts its server (sess stays nil).
	var sess *session.Session
	var out *session.Outcome
	var hit bool
	var feat *features // what the server sent, for a test that captures it
	if wantsFeatures(t) {
		sess, out, feat, err = r.obtainFeatures(ctx, t, q, &res)
	} else {
		sess, out, hit, err = r.obtain(ctx, t, q, &res)
	}
	if res.Status != "" {
		return res
	}
	res.CacheHit = hit
	if b := t.Suite.P95LatencyMS; b > 0 && err == nil && !hit && sess != nil && out != nil {
		latency := ms(out.Duration)
		res.LatencyMS, res.LatencyBudgetMS = &latency, b
	}
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: callErrorKind(err), Message: r.opts.Redact.String(err.Error())}
		res.Stderr = r.opts.Redact.String(sess.StderrTail(stderrLines))
		if out != nil {
			res.Frames = r.frames(out.Frames, start)
		}
		return res
	}

	// Secrets the server echoed are masked before anything judges the
	// response: a matcher's diff could otherwise split a secret in pieces
	// no later pass would recognise.
	r.redactOutcome(out)
	// The envelope's bytes are made only when something reads them: a
	// response transform, the keys of what the server sent, captures or
	// the report of a test that did not pass.
	var envelope json.RawMessage
	envelopeBytes := func() json.RawMessage {
		if envelope == nil {
			envelope = envelopeOf(out)
		}
		return envelope
	}
	if hooks.HasResponseTransform(t) || feat != nil || out.RPCError != nil || fw != nil {
		var terr *rpt.Error
		envelope, terr = r.hooks.TransformResponse(ctx, t, out, envelopeBytes())
		envelope = r.withFeatures(feat, envelope)
		if fw != nil && terr == nil {
			withFiles, ferr := fw.Add(envelope)
			if ferr != nil {
				res.Status = rpt.StatusErrored
				res.Error = &rpt.Error{Kind: "files", Message: r.opts.Redact.String(ferr.Error())}
				return res
			}
			// A file the server wrote may hold a secret, as a response may.
			envelope = r.opts.Redact.Bytes(withFiles)
		}
		if terr != nil {
			res.Status, res.Error = rpt.StatusFailed, terr
			res.Response = r.truncate(envelope)
			res.Stderr = r.stderrTail(sess)
			res.Frames = r.frames(out.Frames, start)
			return res
		}
		res.Assertions = r.judge.Test(ctx, t, envelope)
	} else {
		res.Assertions = r.judge.Result(ctx, t, out.Result)
	}
	// The step checks time the call and measure what the server sent; a
	// duration budget does not apply to a cache hit.
	st := assert.StepOf(out, res.CacheHit)
	assert.Verdict(t, &res, &st)
	feat.verdict(&res)
	if len(t.Assertions) == 0 {
		// With nothing to check, the call itself must succeed.
		switch {
		case out.RPCError != nil:
			res.Status = rpt.StatusFailed
			res.Error = &rpt.Error{Kind: "rpc_error", Message: r.opts.Redact.String(out.RPCError.Error())}
		case t.Kind == plan.KindTool && out.IsError():
			res.Status = rpt.StatusFailed
			res.Error = &rpt.Error{Kind: "tool_error", Message: "the tool returned isError: true and the test has no expectations"}
		}
	}
	if len(t.Captures) > 0 {
		r.caps.Take(t, envelopeBytes(), &res)
	}
	r.diagnoseTool(ctx, t, sess, q.Name, &res)
	if res.Status != rpt.StatusPassed {
		res.Response = r.truncate(envelopeBytes())
		res.Stderr = r.stderrTail(sess)
		res.Frames = r.frames(out.Frames, start)
	} else if r.opts.WireAll {
		res.Frames = r.frames(out.Frames, start)
	}
	return res
}

// redactOutcome masks known secrets in everything the server sent.
func (r *runner) redactOutcome(out *session.Outcome) {
	if r.opts.Redact == nil {
		return
	}
	out.Result = r.opts.Redact.Bytes(out.Result)
	if e := out.RPCError; e != nil {
		e.Message = r.opts.Redact.String(e.Message)
		e.Data = r.opts.Redact.Bytes(e.Data)
	}
}

// envelopeOf is the root assertions' targets start from: {"result": ...}
// for a result (isError or not), {"error": ...} for a JSON-RPC error.
func envelopeOf(out *session.Outcome) json.RawMessage {
	var buf bytes.Buffer
	if out.RPCError != nil {
		e, _ := json.Marshal(out.RPCError)
		buf.WriteString(`{"error":`)
		buf.Write(e)
	} else {
		buf.WriteString(`{"result":`)
		if len(out.Result) == 0 {
			buf.WriteString("null")
		} else {
			buf.Write(out.Result)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func callErrorKind(err error) string {
	switch {
	case errors.Is(err, session.ErrServerExited):
		return "server_exited"
	case errors.Is(err, session.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case errors.Is(err, session.ErrBadResponse):
		return "bad_response"
	case errors.Is(err, cassette.ErrNoRecording):
		return "cassette"
	case errors.Is(err, session.ErrInputRequired):
		return "input_required"
	}
	return "transport"
}

func (r *runner) truncate(raw json.RawMessage) json.RawMessage {
	b := r.opts.Redact.Bytes(raw)
	if len(b) <= responseLimit && jsonx.Embeddable(b) {
		return b
	}
	return jsonx.EmbedText(b, responseLimit)
}

// frames converts the session's wire capture for the report.
func (r *runner) frames(fs []session.Frame, start time.Time) []rpt.Frame {
	out := make([]rpt.Frame, 0, len(fs))
	for _, f := range fs {
		raw := r.opts.Redact.String(f.Raw)
		dir := "recv"
		if f.Direction == session.Sent {
			dir = "send"
		}
		fr := rpt.Frame{Direction: dir, AtMS: ms(f.Time.Sub(start)), Truncated: f.Truncated}
		if !f.Truncated && jsonx.Embeddable([]byte(raw)) {
			fr.Data = json.RawMessage(raw)
		} else {
			fr.Data, _ = json.Marshal(raw)
		}
		out = append(out, fr)
	}
	return out
}
