package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/sdk/report"
)

// Matcher judges one extracted value against a matcher argument.
// Implementations must be safe for concurrent use: the SDK evaluates the
// items of a batch in parallel.
type Matcher interface {
	Match(ctx context.Context, in MatchInput) (MatchResult, error)
}

// ArgumentChecker is implemented by matchers that can reject a bad argument
// before the run starts (an invalid regex, a list that must not be empty).
// The host checks every assertion once, before any server starts, and a
// rejected argument is a suite error.
type ArgumentChecker interface {
	CheckArgument(key string, arg json.RawMessage) error
}

// CapabilityVetPure declares that every CheckArgument of the plugin is a
// pure function of the matcher key and the argument: the same plugin
// binary always gives the same verdict on them, whatever the environment,
// the files or the time. The host may then remember verdicts across runs
// (keyed by the executable's verified sha256) and start the servers of a
// suite whose arguments were all vetted before without waiting for the
// plugin to start. Declare it in Plugin.Capabilities only if it holds.
const CapabilityVetPure = "vet-pure"

// CapabilityReflexive, followed by a matcher key, declares that the key is
// reflexive: an actual value whose JSON is byte for byte the argument's
// passes, whatever the options, as long as the argument is valid. The
// verdict is then sdk.Pass() exactly (no score, no failure). The host may
// record such an assertion as passed by the plugin without starting it,
// once it knows the argument valid (vetted by the plugin in this run, or
// remembered from an earlier one under CapabilityVetPure), and start the
// plugin only for an assertion it must really judge. A plugin that
// declares it for a key must keep that promise in its own Match too, since
// a host may send it such assertions all the same. Declare it with
// Reflexive(key).
const CapabilityReflexive = "matcher-reflexive:"

// Reflexive returns the capability declaring the matcher key reflexive
// (CapabilityReflexive).
func Reflexive(key string) string { return CapabilityReflexive + key }

// MatcherFunc adapts a function to the Matcher interface.
type MatcherFunc func(ctx context.Context, in MatchInput) (MatchResult, error)

// Match calls f.
func (f MatcherFunc) Match(ctx context.Context, in MatchInput) (MatchResult, error) {
	return f(ctx, in)
}

// MatchInput is one assertion to judge.
//
// Actual, Argument and Options.Raw are valid until Match returns: the SDK
// reads a batch in place and reuses its memory for the next one. A matcher
// that keeps any of them past the call (in a cache, a goroutine) copies
// it; converting to a string (string(in.Argument), as a map key) copies.
// What Match returns may refer to them: the SDK copies the result before
// it frees the batch.
type MatchInput struct {
	// Key is the matcher key as written in the suite, so one implementation
	// can serve several keys.
	Key string
	// Actual is the JSON value extracted at the assertion's target.
	Actual json.RawMessage
	// Argument is the matcher's argument from the suite, as JSON.
	Argument json.RawMessage
	// Options is the per-assertion context.
	Options MatchOptions
	// Host lets the matcher ask mcptest for model calls. It is never nil;
	// without a host its methods return ErrNoHost.
	Host Host
}

// MatchOptions is the per-assertion context the host sends with each item.
// The named fields travel as typed protobuf fields; Raw carries any further
// options as a JSON object.
type MatchOptions struct {
	TestID    string `json:"test_id,omitempty"`
	TestName  string `json:"test_name,omitempty"`
	Target    string `json:"target,omitempty"`
	Message   string `json:"message,omitempty"`
	SuiteFile string `json:"suite_file,omitempty"`
	SuiteDir  string `json:"suite_dir,omitempty"`
	// UpdateSnapshots is set by --update-snapshots.
	UpdateSnapshots bool `json:"update_snapshots,omitempty"`
	// Raw holds further options as a JSON object, for fields this SDK
	// version does not know; nil when there are none.
	Raw json.RawMessage `json:"-"`
}

// MatchResult is the verdict on one item.
type MatchResult struct {
	Pass bool
	// Score, when set, is a graded score in [0, 1].
	Score *float64
	// Failure explains a failed match; it is ignored when Pass is true.
	Failure *Failure
	// Deferred, when set, says the item was not judged because a model it
	// needs has no key (the text names the variable to set): the host
	// reports it deferred, neither passed nor failed, and Pass, Score and
	// Failure are ignored. A Match that returns an error matching
	// ErrNoModelKey is reported the same way, with the error's text.
	Deferred string
	// Eval, when set, is the grade behind the verdict of a model-graded
	// matcher (score, threshold, the judge's reason, jurors); the host
	// copies it into the report's assertion.
	Eval *report.Eval
}

// Pass returns a passing result.
func Pass() MatchResult { return MatchResult{Pass: true} }

// Defer returns a deferred result: reason says which key is missing.
func Defer(reason string) MatchResult { return MatchResult{Deferred: reason} }

// Fail returns a failing result with the given failure.
func Fail(f Failure) MatchResult { return MatchResult{Failure: &f} }

// Failure is a structured failure. Expected and Actual are JSON values;
// Extra adds matcher-specific top-level fields (match, errors, score ...).
type Failure struct {
	Expected json.RawMessage
	Actual   json.RawMessage
	Diff     string
	Path     string
	Note     string
	Extra    map[string]any
}

// failureFields is Failure without Extra, for the common case where
// encoding needs no map.
type failureFields struct {
	Expected json.RawMessage `json:"expected,omitempty"`
	Actual   json.RawMessage `json:"actual,omitempty"`
	Diff     string          `json:"diff,omitempty"`
	Path     string          `json:"path,omitempty"`
	Note     string          `json:"note,omitempty"`
}

// MarshalJSON flattens Extra into the top-level object so failures read
// like the shapes in the suite reference.
func (f Failure) MarshalJSON() ([]byte, error) {
	if len(f.Extra) == 0 {
		return json.Marshal(failureFields{f.Expected, f.Actual, f.Diff, f.Path, f.Note})
	}
	m := make(map[string]any, len(f.Extra)+5)
	for k, v := range f.Extra {
		m[k] = v
	}
	if f.Expected != nil {
		m["expected"] = f.Expected
	}
	if f.Actual != nil {
		m["actual"] = f.Actual
	}
	if f.Diff != "" {
		m["diff"] = f.Diff
	}
	if f.Path != "" {
		m["path"] = f.Path
	}
	if f.Note != "" {
		m["note"] = f.Note
	}
	return json.Marshal(m)
}

// JSON encodes v for use in Failure.Expected or Failure.Actual. A value that
// cannot be encoded becomes its fmt representation as a JSON string.
func JSON(v any) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(fmt.Sprint(v))
	}
	return b
}

// ErrInvalidArgument marks an error as a suite bug (a matcher argument that
// cannot work), not a failed assertion: the run exits 2.
var ErrInvalidArgument = errors.New("invalid matcher argument")

// InvalidArgument returns an error for which errors.Is(err,
// ErrInvalidArgument) holds; format may use %w to wrap a cause too.
func InvalidArgument(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidArgument}, args...)...)
}

// FailureValueLimit bounds each of Failure.Expected, Failure.Actual and
// Failure.Diff as a plugin sends them: a longer one is cut to its first
// FailureValueLimit bytes, as a JSON string ending in a marker that gives
// the full length. A failure explains a verdict to a person; a 50 MB
// response echoed in full (twice, with a diff) would only multiply the
// memory of the plugin, the wire and the host, and the report keeps the
// response itself in its frames when asked to.
const FailureValueLimit = 64 << 10
