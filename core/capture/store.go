package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrMissing is wrapped when a test refers to a capture that no test
// of the run produced: the producing test is not part of the run (left out
// by the selection or by --shard).
var ErrMissing = errors.New("capture not available")

// ErrUnset is wrapped when the test producing a capture ran but did
// not capture the value: it errored, or the target did not resolve.
var ErrUnset = errors.New("capture not set")

// Store holds the values tests capture during a run, per suite, and
// makes a test that uses one wait until its producers have finished.
type Store struct {
	// redact scrubs secrets from the errors Await and Take report.
	redact *redact.Redactor

	mu     sync.Mutex
	values map[captureScope]map[string]any
	// why explains, per suite and name, why a producer that finished did
	// not set the value.
	why map[captureScope]map[string]string
	// done is closed when the test finishes, for each planned producer
	// some planned test waits for.
	done map[*plan.Test]chan struct{}
}

// NewStore prepares the store for a plan: only tests that are in the
// plan get a done channel, so a producer a shard left out is never waited
// for. red scrubs secrets from the errors it reports.
func NewStore(p *plan.Plan, red *redact.Redactor) *Store {
	c := &Store{redact: red, values: map[captureScope]map[string]any{}, why: map[captureScope]map[string]string{}, done: map[*plan.Test]chan struct{}{}}
	planned := make(map[*plan.Test]bool, len(p.Tests))
	for _, t := range p.Tests {
		planned[t] = true
	}
	for _, t := range p.Tests {
		for _, a := range t.After {
			if planned[a] && c.done[a] == nil {
				c.done[a] = make(chan struct{})
			}
		}
	}
	return c
}

// Finish marks t as finished, releasing the tests that wait for it, and
// notes why any capture it declares was not set (it errored, was skipped,
// or its target did not resolve). It may be called more than once.
func (c *Store) Finish(t *plan.Test, res *rpt.Test) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(t.Captures) > 0 {
		vals, why := c.suiteMaps(t)
		for _, cp := range t.Captures {
			name := cp.Spec.Name
			if _, ok := vals[name]; ok || why[name] != "" {
				continue
			}
			reason := fmt.Sprintf("test %q ended %s", t.Name, res.Status)
			if res.Error != nil {
				reason += " (" + res.Error.Kind + ": " + res.Error.Message + ")"
			}
			why[name] = reason
		}
	}
	if ch := c.done[t]; ch != nil {
		close(ch)
		delete(c.done, t)
	}
}

// wait blocks until every planned producer of t has finished, or ctx ends.
func (c *Store) wait(ctx context.Context, t *plan.Test) error {
	for _, a := range t.After {
		c.mu.Lock()
		ch := c.done[a]
		c.mu.Unlock()
		if ch == nil {
			continue // finished already, or not part of the run
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for test %q, which captures a value this test uses: %w", a.Name, ctx.Err())
		}
	}
	return nil
}

// record takes the test's captures from the envelope it was judged on. A
// target that does not resolve leaves the name unset and is returned as an
// error naming every such capture.
func (c *Store) record(t *plan.Test, envelope json.RawMessage) error {
	if len(t.Captures) == 0 {
		return nil
	}
	root, err := jsonx.Decode(envelope)
	if err == nil {
		plan.FillDecoded(t, root)
	}
	var problems []string
	c.mu.Lock()
	defer c.mu.Unlock()
	vals, why := c.suiteMaps(t)
	for _, cp := range t.Captures {
		name := cp.Spec.Name
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: the response is not valid JSON", name))
			why[name] = fmt.Sprintf("test %q answered with invalid JSON", t.Name)
			continue
		}
		v, xerr := cp.Target.Extract(root)
		if xerr != nil {
			problems = append(problems, fmt.Sprintf("%s (%s): %v", name, cp.Spec.Target, xerr))
			why[name] = fmt.Sprintf("in test %q, %s did not resolve: %v", t.Name, cp.Spec.Target, xerr)
			continue
		}
		vals[name] = v
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrUnset, strings.Join(problems, "; "))
	}
	return nil
}

// captureScope is where capture names are unique: a suite, at one
// protocol revision (a suite that fans out over several runs its tests,
// and takes its captures, once per revision).
type captureScope struct {
	suite   *config.Suite
	version string
}

// scopeOf is the capture scope of t.
func scopeOf(t *plan.Test) captureScope { return captureScope{t.Suite, t.ProtocolVersion} }

// suiteMaps returns the value and reason maps of t's scope; c.mu is held.
func (c *Store) suiteMaps(t *plan.Test) (map[string]any, map[string]string) {
	k := scopeOf(t)
	if c.values[k] == nil {
		c.values[k], c.why[k] = map[string]any{}, map[string]string{}
	}
	return c.values[k], c.why[k]
}

// Resolver returns the resolver of ${capture:NAME} references for t.
func (c *Store) Resolver(t *plan.Test) Resolver {
	return func(m []string) (any, error) {
		name := m[1]
		c.mu.Lock()
		v, ok := c.values[scopeOf(t)][name]
		why := c.why[scopeOf(t)][name]
		c.mu.Unlock()
		switch {
		case ok:
			return v, nil
		case why != "":
			return nil, fmt.Errorf("${capture:%s}: %w: %s", name, ErrUnset, why)
		}
		return nil, fmt.Errorf("${capture:%s}: %w: the test that captures it is not part of this run (left out by the selection or the shard)", name, ErrMissing)
	}
}

// Resolve substitutes the captures t uses in a JSON document.
func (c *Store) Resolve(t *plan.Test, raw json.RawMessage) (json.RawMessage, error) {
	if len(t.Consumes) == 0 {
		return raw, nil
	}
	return Substitute(raw, plan.CaptureRef(), "${capture:", c.Resolver(t))
}

// ResolveText substitutes the captures t uses in plain text.
func (c *Store) ResolveText(t *plan.Test, s string) (string, error) {
	if len(t.Consumes) == 0 {
		return s, nil
	}
	return SubstituteText(s, plan.CaptureRef(), c.Resolver(t))
}

// Await waits for the tests producing the captures t uses and
// checks that each one is set. When one is not, it fills res and returns
// false: a capture whose producer is not part of the run is an error of
// the run's setup (errored); one whose producer ran but did not capture
// skips the test, as the producer's own result already says what went
// wrong.
func (c *Store) Await(ctx context.Context, t *plan.Test, res *rpt.Test) bool {
	if len(t.Consumes) == 0 {
		return true
	}
	if err := c.wait(ctx, t); err != nil {
		res.Status = rpt.StatusSkipped
		res.Error = &rpt.Error{Kind: "interrupted", Message: err.Error()}
		return false
	}
	resolve := c.Resolver(t)
	for _, name := range t.Consumes {
		_, err := resolve([]string{"${capture:" + name + "}", name})
		switch {
		case err == nil:
			continue
		case errors.Is(err, ErrMissing):
			res.Status = rpt.StatusErrored
			res.Error = &rpt.Error{Kind: "capture_missing", Message: err.Error()}
		default:
			res.Status = rpt.StatusSkipped
			res.Error = &rpt.Error{Kind: "capture_unset", Message: c.redact.String(err.Error())}
		}
		return false
	}
	return true
}

// Take records t's captures from the envelope it was judged on. A
// capture whose target does not resolve fails a test that would otherwise
// pass: later tests were promised the value.
func (c *Store) Take(t *plan.Test, envelope json.RawMessage, res *rpt.Test) {
	err := c.record(t, envelope)
	if err == nil || res.Status != rpt.StatusPassed {
		return
	}
	res.Status = rpt.StatusFailed
	res.Error = &rpt.Error{Kind: "capture", Message: c.redact.String(err.Error())}
}
