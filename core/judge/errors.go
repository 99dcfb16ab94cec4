package judge

import (
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/internal/judgereply"
)

// Sentinel errors of Grade, Metric and DefaultModel, for errors.Is.
var (
	// ErrDeferred: the grade cannot be made in this environment (no key
	// for the judge model, a multi-turn metric on a single-prompt run).
	// Callers report the test deferred, never passed or failed; the error
	// text names what is missing.
	ErrDeferred = errors.New("judging deferred")
	// ErrMaxCost: the --max-cost budget stopped a judge call before it
	// was made. It is costcap.ErrMaxCost.
	ErrMaxCost = costcap.ErrMaxCost
	// ErrUnpriced: a judge model without a known price under --max-cost.
	ErrUnpriced = costcap.ErrUnpriced
	// ErrReply: a judge's reply stayed unusable after the one repair.
	// It is judgereply.ErrMalformed; the error is a *ReplyError.
	ErrReply = judgereply.ErrMalformed
)

// DeferredError is a deferred grade: why, and the cause (which matches
// models.ErrNoKey when a key is missing).
type DeferredError struct {
	// Reason says what is missing, naming the variable to set.
	Reason string
	Err    error
}

// Error is the reason.
func (e *DeferredError) Error() string { return e.Reason }

// Unwrap returns the cause.
func (e *DeferredError) Unwrap() error { return e.Err }

// Is matches ErrDeferred.
func (e *DeferredError) Is(target error) bool { return target == ErrDeferred }

// ReplyError is a judge reply that stayed unusable after the repair
// instruction: the model, what was graded, and the masked excerpt of the
// last reply.
type ReplyError struct {
	// Model is the judge model; Label the criterion, tree question or
	// "rubric" it was asked about.
	Model, Label string
	// Err is the parser's refusal, its excerpt masked.
	Err *judgereply.Error
}

// Error names the judge, the question and the reply.
func (e *ReplyError) Error() string {
	return fmt.Sprintf("judge %s on %s: still no usable reply after one repair: %v", e.Model, e.Label, e.Err)
}

// Unwrap returns the parser's error (matching ErrReply).
func (e *ReplyError) Unwrap() error { return e.Err }
