package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
)

// limits are the guard settings of one plugin instance.
type limits struct {
	// maxDepth caps the schema's JSON nesting.
	maxDepth int
	// budget is the wall-clock time one validation may take.
	budget time.Duration
}

// matcher serves the schema key. It implements sdk.Matcher and
// sdk.ArgumentChecker and is safe for concurrent use.
type matcher struct {
	cache     *schemaguard.Cache
	validator *schemaguard.Validator
}

// newMatcher returns a matcher with an empty schema cache.
func newMatcher(l limits) *matcher {
	return &matcher{cache: schemaguard.NewCache(l.maxDepth), validator: schemaguard.NewValidator(l.budget)}
}

// CheckArgument compiles the schema before the run, so a schema that breaks
// a guard or does not compile stops the suite before any server starts.
// The compiled schema stays cached for the run.
func (m *matcher) CheckArgument(key string, arg json.RawMessage) error {
	if key != matcherKey {
		return sdk.InvalidArgument("the schema plugin has no matcher %q", key)
	}
	if _, err := m.cache.Get(arg); err != nil {
		return invalidArg(err)
	}
	return nil
}

// Match validates the actual value against the schema argument.
func (m *matcher) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if in.Key != matcherKey {
		return sdk.MatchResult{}, sdk.InvalidArgument("the schema plugin has no matcher %q", in.Key)
	}
	c, err := m.cache.Get(in.Argument)
	if err != nil {
		return sdk.MatchResult{}, invalidArg(err)
	}
	instance, err := decodeInstance(in.Actual)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("schema: decode actual value: %w", err)
	}
	err = m.validator.Validate(ctx, c, instance)
	var verr *jsonschema.ValidationError
	switch {
	case err == nil:
		return sdk.Pass(), nil
	case errors.As(err, &verr):
		if cycle := schemaguard.RefCycle(verr); cycle != nil {
			// The schema can never give a verdict: a suite bug.
			return sdk.MatchResult{}, invalidArg(cycle)
		}
		return sdk.Fail(schemaFailure(verr)), nil
	case errors.Is(err, schemaguard.ErrSchemaValidationTimedOut):
		return sdk.MatchResult{}, invalidArg(err)
	}
	return sdk.MatchResult{}, fmt.Errorf("schema: %w", err)
}

// schemaFailure turns a validation error into the failure the spec shows:
// the leaf causes as "errors", and a note quoting the first, for reporters
// that show only the note. When the list is cut, "errors_total" has the
// full count.
func schemaFailure(verr *jsonschema.ValidationError) sdk.Failure {
	errs := schemaguard.LeafErrors(verr)
	note := "the value does not match the schema"
	if len(errs) > 0 {
		note += fmt.Sprintf(": at %s: %s", schemaguard.PointerOrRoot(errs[0].InstancePath), errs[0].Message)
	}
	if len(errs) > 1 {
		note += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
	return sdk.Failure{Note: note, Extra: schemaguard.FailureFields(errs)}
}

// decodeInstance decodes the actual value with numbers as json.Number, so
// integers beyond 2^53 keep every digit through validation.
func decodeInstance(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("no value")
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}

// invalidArg marks err as a suite bug in the schema argument.
func invalidArg(err error) error {
	return sdk.InvalidArgument("schema: %w", err)
}
