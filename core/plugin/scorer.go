package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// ErrScoreFailed is matched (errors.Is) by the error of a grading the
// scorer plugin answered with an error of its own (the external grader
// exited non-zero, printed no JSON, timed out), as opposed to a plugin
// that crashed or hung.
var ErrScoreFailed = errors.New("scorer could not grade")

// scoreError is a scorer plugin's own message for one item.
type scoreError struct{ msg string }

func (e *scoreError) Error() string        { return e.msg }
func (e *scoreError) Is(target error) bool { return target == ErrScoreFailed }

// ScoreRequest is one grading for scorer Key of plugin Plugin.
type ScoreRequest struct {
	Plugin *Found
	// Key is the scorer type ("exec").
	Key string
	// Config is the scorers: entry as JSON; Envelope is {input, output,
	// criteria, metadata}.
	Config   []byte
	Envelope []byte
	// Timeout is the grading's own budget (timeout_ms); the call into the
	// plugin may last that long plus a margin before the plugin is deemed
	// hung, so a slow grader is reported by its plugin, not as a hang. 0
	// leaves the host's call timeout alone.
	Timeout time.Duration
}

// scoreMargin is how much longer than a grading's own timeout the host
// waits for the plugin: the plugin needs a moment to kill the grader's
// process group and answer.
const scoreMargin = 5 * time.Second

// Score grades one item in the scorer plugin, starting it on first use. A
// plugin that crashes or hangs is handled as for any other call (a
// *PluginError); the plugin's own error for the item matches
// ErrScoreFailed.
func (h *Host) Score(ctx context.Context, req ScoreRequest) (contract.ScoreResult, error) {
	f := req.Plugin
	inc, err := h.get(ctx, f)
	if err != nil {
		return contract.ScoreResult{}, err
	}
	if inc.scorer == nil {
		return contract.ScoreResult{}, newPluginError(f, errors.New("serves no scorers"), "")
	}
	p, err := h.proc(f)
	if err != nil {
		return contract.ScoreResult{}, err
	}
	p.sem <- struct{}{}
	defer func() { <-p.sem }()
	timeout := h.opts.CallTimeout
	if req.Timeout > 0 && req.Timeout+scoreMargin > timeout {
		timeout = req.Timeout + scoreMargin
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	during := fmt.Sprintf("scorer %q", req.Key)
	res, err := inc.scorer.Score(callCtx, []pluginrpc.ScoreItem{{ID: 1, Key: req.Key, Config: req.Config, Envelope: req.Envelope}})
	if err != nil {
		if ctx.Err() != nil {
			return contract.ScoreResult{}, fmt.Errorf("%s: %w", during, ctx.Err())
		}
		return contract.ScoreResult{}, h.callFailed(p, inc, callCtx, err, during)
	}
	if len(res) != 1 {
		return contract.ScoreResult{}, newPluginError(f, fmt.Errorf("%w: %d results for one item", ErrBadResult, len(res)), "")
	}
	if res[0].Error != "" {
		return contract.ScoreResult{}, &scoreError{msg: res[0].Error}
	}
	return res[0].ScoreResult, nil
}
