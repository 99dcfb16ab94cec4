package schemaguard

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// How a validation is kept inside its budget.
//
// The validator has no context or deadline of its own, and a goroutine
// cannot be killed, so each validation runs on its own goroutine while the
// caller waits for the result or the budget, whichever comes first. On
// timeout the caller returns ErrSchemaValidationTimedOut at once; what
// happens to the abandoned work is bounded three ways:
//
//  1. Interrupt. Every compiled schema carries a hook (a user vocabulary
//     the compiler attaches to each subschema object) that the validator
//     calls as it finishes evaluating a subschema. A timeout trips the
//     schema's gate; the hook then panics with errInterrupted, which the
//     validation goroutine recovers, so the runaway stops within one
//     subschema step. The hook has no way to tell validations apart (the
//     library gives it no per-run state), so the trip stops every
//     validation of that schema in flight; those that still have budget
//     wait until the gate has drained and start again. New validations of
//     the schema wait the same way.
//  2. Slots. The hook is not reached everywhere: the validator skips it
//     for a failing subschema evaluated only for its yes/no answer (under
//     not, if, or a oneOf after its first match), and a single keyword such
//     as uniqueItems over a huge array is one long step. Such work runs to
//     its end. Every validation goroutine therefore holds one of
//     GOMAXPROCS slots until it really finishes, so abandoned work can
//     never use more CPUs than the plugin would use anyway; a validation
//     waiting for a slot spends its own budget doing so.
//  3. The process. mcptest starts one plugin process per run and kills it
//     when the run ends, which ends anything still running.

// interruptions counts validations stopped by the interrupt hook in this
// process, so tests can see the hook work.
var interruptions atomic.Int64

// Interruptions returns how many validations the interrupt hook has
// stopped in this process (for tests and diagnostics).
func Interruptions() int64 { return interruptions.Load() }

// errInterrupted is the panic value the interrupt hook raises.
var errInterrupted = errors.New("schema validation interrupted")

// gate lets a timed-out validation stop every validation of the same
// compiled schema at their next interrupt check.
type gate struct {
	// stop is read by the interrupt hook on every subschema it finishes.
	stop atomic.Bool

	mu      sync.Mutex
	active  int           // validation goroutines running this schema
	drained chan struct{} // non-nil while stopping; closed once active is 0
}

// enter registers a validation about to start. While the gate is stopping
// it waits for the running validations to drain, or for expired to fire.
func (g *gate) enter(expired <-chan time.Time, done <-chan struct{}) error {
	for {
		g.mu.Lock()
		if g.drained == nil {
			g.active++
			g.mu.Unlock()
			return nil
		}
		wait := g.drained
		g.mu.Unlock()
		select {
		case <-wait:
		case <-expired:
			return errBudget
		case <-done:
			return context.Canceled
		}
	}
}

// running returns how many validation goroutines run the gate's schema.
func (g *gate) running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active
}

// leave unregisters a finished validation goroutine and reopens the gate
// when the last one has stopped.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active--
	if g.active == 0 && g.drained != nil {
		g.stop.Store(false)
		close(g.drained)
		g.drained = nil
	}
}

// trip asks every running validation of the schema to stop.
func (g *gate) trip() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.active == 0 || g.drained != nil {
		return
	}
	g.drained = make(chan struct{})
	g.stop.Store(true)
}

// errBudget is returned internally when the budget ran out.
var errBudget = errors.New("budget exhausted")

// outcome is what one validation goroutine reports.
type outcome struct {
	err         error
	interrupted bool
}

// Validator runs validations under a wall-clock budget. It is safe for
// concurrent use; its slots are shared by every validation it runs.
type Validator struct {
	budget time.Duration
	slots  chan struct{}
}

// NewValidator returns a validator with one slot per usable CPU.
func NewValidator(budget time.Duration) *Validator {
	return &Validator{budget: budget, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// Validate checks instance against c within the budget. The instance is
// a decoded JSON value with numbers as json.Number (or float64). It
// returns nil when the instance is valid, a *jsonschema.ValidationError
// when it is not, an error wrapping ErrSchemaValidationTimedOut when the
// budget ran out, or the context's error.
func (v *Validator) Validate(ctx context.Context, c *Schema, instance any) error {
	timer := time.NewTimer(v.budget)
	defer timer.Stop()
	timedOut := fmt.Errorf("%w: validation did not finish within %s", ErrSchemaValidationTimedOut, v.budget)
	for {
		if err := c.gate.enter(timer.C, ctx.Done()); err != nil {
			if errors.Is(err, errBudget) {
				return timedOut
			}
			return ctx.Err()
		}
		select {
		case v.slots <- struct{}{}:
		case <-timer.C:
			c.gate.leave()
			return timedOut
		case <-ctx.Done():
			c.gate.leave()
			return ctx.Err()
		}
		results := make(chan outcome, 1)
		go v.run(c, instance, results)
		select {
		case o := <-results:
			if o.interrupted {
				// Another validation of this schema overran; this one still
				// has budget, so it waits for the gate and starts again.
				continue
			}
			return o.err
		case <-timer.C:
			c.gate.trip()
			return timedOut
		case <-ctx.Done():
			c.gate.trip()
			return ctx.Err()
		}
	}
}

// run validates on the calling goroutine and reports to results, which
// must have room for one value so an abandoned run never blocks.
func (v *Validator) run(c *Schema, instance any, results chan<- outcome) {
	defer func() {
		<-v.slots
		c.gate.leave()
	}()
	defer func() {
		if r := recover(); r != nil {
			if r == errInterrupted {
				interruptions.Add(1)
				results <- outcome{interrupted: true}
				return
			}
			// This goroutine is outside the SDK's per-item recovery, so a
			// panic here would take the whole plugin down: report it.
			results <- outcome{err: fmt.Errorf("the validator panicked: %v", r)}
		}
	}()
	results <- outcome{err: c.schema.Validate(instance)}
}

// interruptVocabulary is the hook described at the top of this file: a
// vocabulary with no keywords whose extension is attached to every
// subschema object and checks the gate.
func interruptVocabulary(g *gate) *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{
		URL: "urn:mcptest:vocab:interrupt",
		Compile: func(*jsonschema.CompilerContext, map[string]any) (jsonschema.SchemaExt, error) {
			return interruptHook{g}, nil
		},
	}
}

// interruptHook is the per-subschema extension of interruptVocabulary.
type interruptHook struct{ g *gate }

// Validate panics with errInterrupted when the gate is stopping.
func (h interruptHook) Validate(*jsonschema.ValidatorContext, any) {
	if h.g.stop.Load() {
		panic(errInterrupted)
	}
}

// Running returns how many validations of s are running, including ones
// abandoned at their budget that have not stopped yet (for tests and
// diagnostics).
func (s *Schema) Running() int { return s.gate.running() }
