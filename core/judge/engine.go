package judge

import (
	"io"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/internal/redact"
)

// DefaultMaxTokens is the completion budget of one judge call: a verdict
// is one short JSON object.
const DefaultMaxTokens = 512

// Options configure an Engine.
type Options struct {
	// Models gives the judge models and their prices.
	Models ModelSource
	// DefaultModel is the judge model of a spec that names none (see
	// DefaultModel); "" makes such a grade deferred.
	DefaultModel string
	// DefaultModelErr, when DefaultModel is "", is why there is none (the
	// error DefaultModel returned); a grade needing the default returns it.
	DefaultModelErr error
	// Cache answers repeated judge requests; nil caches nothing.
	Cache *verdictcache.Cache
	// Cap is the run's --max-cost budget; nil for none.
	Cap *costcap.Cap
	// Redactor masks secrets in everything the engine reports, caches or
	// shows (the run's one redactor); nil masks nothing.
	Redactor *redact.Redactor
	// ShowJudging, when set, receives each prompt sent and each parsed
	// reply (--show-judging), masked.
	ShowJudging io.Writer
	// MaxTokens is the completion budget of a judge call; 0 means
	// DefaultMaxTokens.
	MaxTokens int
	// CallTimeout bounds one judge call; 0 means DefaultCallTimeout.
	CallTimeout time.Duration
}

// DefaultCallTimeout bounds a judge call whose caller set no timeout: a
// verdict is short, so a call still running after this is stuck.
const DefaultCallTimeout = 2 * time.Minute

// Engine grades candidates against rubrics. It is safe for concurrent
// use; engines sharing a Cache and a Cap share their answers and budget.
type Engine struct {
	opts Options
	show sync.Mutex
}

// New returns an engine.
func New(opts Options) *Engine {
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	return &Engine{opts: opts}
}

// mask hides secrets in s.
func (e *Engine) mask(s string) string {
	if e.opts.Redactor == nil || s == "" {
		return s
	}
	return e.opts.Redactor.String(s)
}
