package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
)

// options is a matcher argument once checked: everything a key needs to
// judge a value, ready to use.
type options struct {
	// schema validates the parsed document (is-json) or the call's
	// arguments (is-valid-tools-call); nil means no schema check.
	schema *schemaguard.Schema
	// root is the required root element name (is-xml); empty means any.
	root string
}

// keyImpl is how one matcher key reads its argument and judges a value.
type keyImpl struct {
	// parse turns the decoded argument (nil for ~) into options; every
	// error it returns is a suite bug.
	parse func(f *family, arg any) (options, error)
	// match judges the actual value (raw JSON) with checked options.
	match func(ctx context.Context, f *family, actual json.RawMessage, opts options) (sdk.MatchResult, error)
}

// family serves every key of the format plugin. It implements sdk.Matcher
// and sdk.ArgumentChecker and is safe for concurrent use.
type family struct {
	keys map[string]keyImpl
	// args caches checked options by key and argument text: a batch
	// usually repeats one argument for many items, and compiling a schema
	// costs far more than judging a value.
	args optionsCache
	// sql lends SQL parsers, which are not safe for concurrent use.
	sql sqlParsers
	// validator runs schema validations under the 2-second budget.
	validator *schemaguard.Validator
}

// newFamily returns the format matcher family with all its keys.
func newFamily() *family {
	return &family{
		keys: map[string]keyImpl{
			"is-json":             {parse: parseSchemaOption, match: matchJSON},
			"is-xml":              {parse: parseXMLOption, match: matchXML},
			"is-sql":              {parse: parseNoOption, match: matchSQL},
			"is-valid-tools-call": {parse: parseSchemaOption, match: matchToolCall},
		},
		validator: schemaguard.NewValidator(schemaguard.DefaultBudget),
	}
}

// CheckArgument validates a matcher argument before the run starts.
func (f *family) CheckArgument(key string, arg json.RawMessage) error {
	_, err := f.options(key, arg)
	return err
}

// Match judges one assertion. A bad argument is reported as
// sdk.ErrInvalidArgument so the run stops as a suite error.
func (f *family) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	opts, err := f.options(in.Key, in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	return f.keys[in.Key].match(ctx, f, in.Actual, opts)
}

// options returns the checked options of key for the raw argument, from
// the cache when the same argument was seen before.
func (f *family) options(key string, raw json.RawMessage) (options, error) {
	impl, ok := f.keys[key]
	if !ok {
		return options{}, sdk.InvalidArgument("the format plugin has no matcher %q", key)
	}
	cacheKey := key + "\x00" + string(raw)
	if o, ok := f.args.get(cacheKey); ok {
		return o, nil
	}
	arg, err := decodeArgument(raw)
	if err != nil {
		return options{}, invalidArg(key, err)
	}
	o, err := impl.parse(f, arg)
	if err != nil {
		return options{}, invalidArg(key, err)
	}
	f.args.put(cacheKey, o)
	return o, nil
}

// invalidArg marks err as a bad argument of key.
func invalidArg(key string, err error) error {
	return fmt.Errorf("%w: %s: %w", sdk.ErrInvalidArgument, key, err)
}

// maxCachedOptions bounds the options cache; arguments beyond it are
// parsed (and their schemas compiled) on every use.
const maxCachedOptions = 512

// optionsCache maps key+argument text to checked options.
type optionsCache struct {
	m sync.Map // string -> options
	n atomic.Int64
}

// get returns the cached options for k.
func (c *optionsCache) get(k string) (options, bool) {
	v, ok := c.m.Load(k)
	if !ok {
		return options{}, false
	}
	return v.(options), true
}

// put caches o for k while the cache has room.
func (c *optionsCache) put(k string, o options) {
	if c.n.Load() >= maxCachedOptions {
		return
	}
	if _, loaded := c.m.LoadOrStore(k, o); !loaded {
		c.n.Add(1)
	}
}
