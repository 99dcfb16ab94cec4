package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// judge evaluates the test's assertions against the envelope: targets are
// resolved here, matching happens in the plugins.
func (r *runner) judge(ctx context.Context, t *plan.Test, envelope json.RawMessage) []rpt.Assertion {
	if len(t.Assertions) == 0 {
		return nil
	}
	out := make([]rpt.Assertion, len(t.Assertions))
	root, decodeErr := decode(envelope)
	var reqs []plugin.MatchRequest
	var slots []int
	for i, a := range t.Assertions {
		out[i] = rpt.Assertion{Index: i, Target: a.Spec.Target, Matcher: a.Spec.Matcher.Key, Message: a.Spec.Message, Plugin: a.Plugin.Label()}
		if decodeErr != nil {
			out[i].Status = rpt.StatusErrored
			out[i].Error = "the response is not valid JSON: " + decodeErr.Error()
			continue
		}
		actual, err := a.Target.Extract(root)
		if err != nil {
			out[i].Status = rpt.StatusFailed
			out[i].Failure = targetFailure(a, err)
			continue
		}
		actualJSON, err := json.Marshal(actual)
		if err != nil {
			out[i].Status = rpt.StatusErrored
			out[i].Error = "encode the value at the target: " + err.Error()
			continue
		}
		opts := sdk.MatchOptions{
			TestID: t.ID, TestName: t.Name, Target: a.Spec.Target, Message: a.Spec.Message,
			SuiteFile: t.Suite.File, SuiteDir: t.Suite.Dir, UpdateSnapshots: r.opts.UpdateSnapshots,
		}
		reqs = append(reqs, plugin.MatchRequest{Plugin: a.Plugin, Key: a.Spec.Matcher.Key, Actual: actualJSON, Argument: a.Spec.Matcher.Arg, Options: opts})
		slots = append(slots, i)
	}
	for j, o := range r.match.match(ctx, reqs) {
		a := &out[slots[j]]
		a.Score = o.Score
		switch {
		case o.Err != nil:
			r.notePluginError(o.Err)
			a.Status = rpt.StatusErrored
			a.Error = r.opts.Redact.String(o.Err.Error())
			if o.ErrorKind == sdk.ErrorKindInvalidArgument && !strings.HasPrefix(a.Error, sdk.ErrInvalidArgument.Error()) {
				a.Error = sdk.ErrInvalidArgument.Error() + ": " + a.Error
			}
		case o.Pass:
			a.Status = rpt.StatusPassed
		default:
			a.Status = rpt.StatusFailed
			a.Failure = r.opts.Redact.Bytes(o.Failure)
		}
	}
	return out
}

// targetFailure explains a target that does not resolve in the response.
func targetFailure(a *plan.Assertion, err error) json.RawMessage {
	note := err.Error()
	if errors.Is(err, target.ErrNotFound) {
		note = "target not found: " + note
	}
	b, _ := json.Marshal(map[string]any{"expected": a.Spec.Matcher.Arg, "note": note})
	return b
}

// decode parses JSON keeping numbers exact.
func decode(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
