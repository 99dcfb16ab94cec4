package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// keyImpl is how one matcher key validates its argument and judges a value.
type keyImpl struct {
	// check validates the decoded argument; nil accepts any JSON value.
	check func(f *family, arg any) error
	// match judges the decoded actual value against a checked argument.
	match func(f *family, in input) (sdk.MatchResult, error)
	// samePasses says an actual value written exactly as the (valid)
	// argument passes, so Match need not decode it.
	samePasses bool
}

// input is one assertion with its JSON already decoded.
type input struct {
	key       string
	actual    value
	arg       any
	argRaw    json.RawMessage
	actualRaw json.RawMessage
}

// family serves every key of the text plugin. It implements sdk.Matcher and
// sdk.ArgumentChecker and is safe for concurrent use.
type family struct {
	keys    map[string]keyImpl
	regexps regexCache
	checked argCache
	actuals recentCache
}

// newFamily returns the text matcher family with all its keys.
func newFamily() *family {
	return &family{keys: map[string]keyImpl{
		"exact":        {match: matchExact, samePasses: true},
		"contains":     {match: matchContains},
		"icontains":    {check: checkString, match: matchIContains},
		"starts-with":  {check: checkString, match: matchStartsWith},
		"regex":        {check: checkRegex, match: matchRegex},
		"contains-all": {check: checkArray, match: matchContainsAll},
		"contains-any": {check: checkArray, match: matchContainsAny},
		"levenshtein":  {check: checkLevenshtein, match: matchLevenshtein},
	}}
}

// CheckArgument validates a matcher argument before the run starts.
func (f *family) CheckArgument(key string, arg json.RawMessage) error {
	v, err := f.argument(key, arg)
	if err == nil {
		f.checked.put(key, arg, v)
	}
	return err
}

// Match judges one assertion. An argument the key cannot use is reported
// as sdk.ErrInvalidArgument; an actual value that is not JSON is an
// internal error.
func (f *family) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	impl, ok := f.keys[in.Key]
	if !ok {
		return sdk.MatchResult{}, sdk.InvalidArgument("the text plugin has no matcher %q", in.Key)
	}
	arg, ok := f.checked.get(in.Key, in.Argument)
	if !ok {
		var err error
		if arg, err = f.argument(in.Key, in.Argument); err != nil {
			return sdk.MatchResult{}, err
		}
		// Not checked in this process (mcptest knew the verdict from an
		// earlier run): the assertions sharing it need not decode it too.
		f.checked.remember(in.Key, in.Argument, arg)
	}
	// The argument is valid JSON by now, so identical bytes are one
	// value: equal. Most exact assertions in a green run end here.
	if impl.samePasses && bytes.Equal(in.Actual, in.Argument) {
		return sdk.Pass(), nil
	}
	actual, err := f.actuals.decode(in.Actual)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("%s: decode actual value: %w", in.Key, err)
	}
	return impl.match(f, input{
		key:       in.Key,
		actual:    actual,
		arg:       arg,
		argRaw:    in.Argument,
		actualRaw: in.Actual,
	})
}

// argument decodes and validates the argument of key. Every error wraps
// sdk.ErrInvalidArgument and names the key.
func (f *family) argument(key string, raw json.RawMessage) (any, error) {
	impl, ok := f.keys[key]
	if !ok {
		return nil, sdk.InvalidArgument("the text plugin has no matcher %q", key)
	}
	if len(raw) == 0 {
		return nil, invalidArg(key, errors.New("an argument is required"))
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, invalidArg(key, fmt.Errorf("argument is not valid JSON: %w", err))
	}
	if impl.check != nil {
		if err := impl.check(f, v); err != nil {
			return nil, invalidArg(key, err)
		}
	}
	return v, nil
}

// invalidArg marks err as a bad argument of key.
func invalidArg(key string, err error) error {
	return fmt.Errorf("%w: %s: %w", sdk.ErrInvalidArgument, key, err)
}

// checkString accepts a string argument.
func checkString(_ *family, arg any) error {
	if _, ok := arg.(string); !ok {
		return fmt.Errorf("expected a string argument, got %s", jsonvalue.Describe(arg))
	}
	return nil
}

// checkArray accepts an array argument (possibly empty).
func checkArray(_ *family, arg any) error {
	if _, ok := arg.([]any); !ok {
		return fmt.Errorf("expected an array of values, got %s", jsonvalue.Describe(arg))
	}
	return nil
}

// maxCachedRegexps bounds the compiled-pattern cache; patterns beyond it are
// compiled on every use.
const maxCachedRegexps = 512

// regexCache keeps compiled patterns, since a batch usually repeats the
// same pattern for many items.
type regexCache struct {
	m sync.Map // pattern -> *regexp.Regexp
	n atomic.Int64
}

// compile returns the compiled pattern, from the cache when possible.
func (c *regexCache) compile(pattern string) (*regexp.Regexp, error) {
	if re, ok := c.m.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid pattern %q: %w", pattern, err)
	}
	if c.n.Load() < maxCachedRegexps {
		if _, loaded := c.m.LoadOrStore(pattern, re); !loaded {
			c.n.Add(1)
		}
	}
	return re, nil
}
