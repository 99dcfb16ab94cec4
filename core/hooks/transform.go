package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Transforms are commands that rewrite one JSON value: the request before
// it is sent, the response before assertions run, or the value one
// assertion extracted. The value goes to the command's stdin and its
// stdout, one JSON value, replaces it; no framing, so jq, node or python
// one-liners work as they are. A transform that exits non-zero, times
// out (each run gets the test's timeout) or prints something that is not
// JSON fails the test, and the failure shows the command's stderr.

// Transform phases, as MCPTEST_TRANSFORM_PHASE names them.
const (
	transformRequest   = "request"
	transformResponse  = "response"
	transformAssertion = "assertion"
)

// transformLimit bounds a transform's output. It is far above any
// response mcptest otherwise handles; beyond it the transform is broken.
const transformLimit = 256 << 20

// errorKindTransform classifies a test failed by its transform.
const errorKindTransform = "transform"

// TransformRequest runs the test's request transform on q: the command
// reads {"name", "arguments"} and prints the request to send instead. A
// test without one gets q back.
func (r *Runner) TransformRequest(ctx context.Context, t *plan.Test, q servers.Request) (servers.Request, *rpt.Error) {
	tr := t.Options.Transform
	if t.Kind != plan.KindTool || tr == nil || tr.Request == nil {
		return q, nil
	}
	in, _ := json.Marshal(map[string]json.RawMessage{"name": mustJSON(q.Name), "arguments": servers.ArgsOrEmpty(q.Args)})
	out, stderr, err := r.runTransform(ctx, t, transformRequest, tr.Request, in)
	if err == nil {
		q, err = replaceRequest(q, out)
	}
	if err != nil {
		return q, r.transformError(transformRequest, tr.Request, err, stderr)
	}
	return q, nil
}

// replaceRequest reads a request transform's output: an object with
// name (a non-empty string; absent keeps the tool) and arguments (an
// object; absent or null sends {}). Any other key is refused, since it
// usually means the transform printed only the arguments.
func replaceRequest(q servers.Request, out []byte) (servers.Request, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil || m == nil {
		return q, fmt.Errorf(`%w: a request transform prints {"name": ..., "arguments": {...}}, got %s`, ErrCommandOutput, excerpt(out))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "name" && k != "arguments" {
			return q, fmt.Errorf(`%w: unknown key %q; a request transform prints {"name": ..., "arguments": {...}}`, ErrCommandOutput, k)
		}
	}
	if raw, ok := m["name"]; ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil || name == "" {
			return q, fmt.Errorf("%w: name must be a non-empty string, got %s", ErrCommandOutput, excerpt(raw))
		}
		q.Name = name
	}
	args := bytes.TrimSpace(m["arguments"])
	switch {
	case len(args) == 0 || string(args) == "null":
		q.Args = json.RawMessage(`{}`)
	case args[0] != '{':
		return q, fmt.Errorf("%w: arguments must be a JSON object, got %s", ErrCommandOutput, excerpt(args))
	default:
		q.Args = json.RawMessage(args)
	}
	return q, nil
}

// TransformResponse runs the test's response transform on the envelope:
// the command reads {"result": ...} and prints the envelope assertions
// see instead, which must be an object holding result (and nothing
// else). A JSON-RPC error is not a result and passes through unchanged.
func (r *Runner) TransformResponse(ctx context.Context, t *plan.Test, out *session.Outcome, envelope json.RawMessage) (json.RawMessage, *rpt.Error) {
	tr := t.Options.Transform
	if t.Kind != plan.KindTool || tr == nil || tr.Response == nil || out.RPCError != nil {
		return envelope, nil
	}
	b, stderr, err := r.runTransform(ctx, t, transformResponse, tr.Response, envelope)
	if err == nil {
		err = checkEnvelope(b)
	}
	if err != nil {
		return envelope, r.transformError(transformResponse, tr.Response, err, stderr)
	}
	return b, nil
}

// checkEnvelope checks a response transform's output.
func checkEnvelope(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return fmt.Errorf(`%w: a response transform prints {"result": ...}, got %s`, ErrCommandOutput, excerpt(b))
	}
	if _, ok := m["result"]; !ok || len(m) != 1 {
		keys := slices.Sorted(maps.Keys(m))
		return fmt.Errorf(`%w: a response transform prints {"result": ...}; got the keys %s`, ErrCommandOutput, strings.Join(keys, ", "))
	}
	return nil
}

// TransformValue runs an assertion's transform on the value extracted at
// its target (JSON). On failure it returns the assertion's failure
// object instead: the assertion fails, and so does the test.
func (r *Runner) TransformValue(ctx context.Context, t *plan.Test, a *config.Assertion, actual json.RawMessage) (json.RawMessage, json.RawMessage) {
	if a.Transform == nil {
		return actual, nil
	}
	out, stderr, err := r.runTransform(ctx, t, transformAssertion, a.Transform, actual)
	if err != nil {
		e := r.transformError(transformAssertion, a.Transform, err, stderr)
		failure, _ := json.Marshal(map[string]any{"expected": a.Matcher.Arg, "actual": actual, "note": e.Message})
		return nil, failure
	}
	return out, nil
}

// runTransform runs one transform command on in and returns its output,
// checked to be exactly one JSON value, and the tail of its stderr.
func (r *Runner) runTransform(ctx context.Context, t *plan.Test, phase string, c *config.Command, in []byte) ([]byte, string, error) {
	env := r.envs.of(t.Suite).with(EnvTransformPhase+"="+phase, EnvTestName+"="+t.Name, EnvTestID+"="+t.ID)
	res := runCommand(ctx, command{argv: c.Argv, env: env, stdin: in, timeout: t.Timeout, stdoutMax: transformLimit})
	if res.err != nil {
		return nil, res.stderr, res.err
	}
	out := bytes.TrimSpace(res.stdout)
	switch {
	case len(out) == 0:
		return nil, res.stderr, fmt.Errorf("%w: printed nothing; a transform prints the replacement JSON value", ErrCommandOutput)
	case !json.Valid(out):
		return nil, res.stderr, fmt.Errorf("%w: stdout is not one JSON value: %s", ErrCommandOutput, excerpt(out))
	}
	return out, res.stderr, nil
}

// transformError is the test error of a failed transform: which one, the
// command, why, and the command's stderr.
func (r *Runner) transformError(phase string, c *config.Command, err error, stderr string) *rpt.Error {
	msg := fmt.Sprintf("%s transform %q failed: %v", phase, c.Line, err)
	if s := strings.TrimSpace(stderr); s != "" {
		msg += "\nstderr:\n" + s
	}
	return &rpt.Error{Kind: errorKindTransform, Message: r.Redact.String(msg)}
}

// mustJSON encodes a string.
func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// HasResponseTransform reports whether t's response goes through a
// transform before it is judged.
func HasResponseTransform(t *plan.Test) bool {
	if t.Kind != plan.KindTool || t.Options == nil {
		return false
	}
	tr := t.Options.Transform
	return tr != nil && tr.Response != nil
}
