package assert

import (
	"context"
	"errors"
	"slices"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
)

// CheckArguments asks each matcher plugin to vet the arguments of its
// assertions before any server starts: plain assertions, every leaf of a
// composition and the members of assert-sets, so a bad argument deep in a
// composition is reported as it would be on its own. It also compiles the
// schemas of response header checks. Rejected arguments come back as
// located suite errors; a plugin that cannot vet them (it failed to start)
// is returned as it is.
func CheckArguments(ctx context.Context, host *plugin.Host, p *plan.Plan) error {
	c := &argChecker{ctx: ctx, host: host, seen: map[string]bool{}, verdicts: map[checkKey]error{}, secrets: planSecrets(p)}
	var errs config.Errors
	seenHeaders := map[*config.HeaderCheck]bool{}
	for _, t := range p.Tests {
		for _, a := range t.Assertions {
			a.Leaves(func(l plan.Leaf) { c.add(l) })
		}
		if t.Options == nil || t.Options.ExpectOptions == nil {
			continue
		}
		for _, h := range t.Options.ExpectOptions.ResponseHeaders {
			if h.Schema == nil || seenHeaders[h] {
				continue
			}
			seenHeaders[h] = true
			if _, err := compileHeaderSchema(h); err != nil {
				errs = append(errs, &config.Error{File: h.Pos.File, Line: h.Pos.Line, Col: h.Pos.Col, Pointer: h.Pos.Pointer + "/schema",
					Msg: "invalid schema: " + err.Error()})
			}
		}
	}
	c.flush()
	if len(c.pluginErrs) > 0 {
		return errors.Join(c.pluginErrs...)
	}
	if errs = append(errs, c.located()...); len(errs) > 0 {
		return errs
	}
	return nil
}

// planSecrets returns a redactor of every credential value the planned
// suites read, or nil when they read none.
func planSecrets(p *plan.Plan) *redact.Redactor {
	var all []string
	for _, s := range p.Suites {
		all = append(all, s.Secrets...)
	}
	if len(all) == 0 {
		return nil
	}
	return redact.New(all...)
}

// checkBatch is the number of arguments sent to the plugins at once. The
// arguments of a 330,000-test suite, sent in one call, held about 90 MB
// (requests, their wire form, the answers) on top of the plan; batches
// keep that small, as matching does (DESIGN.md: 1,000 items a call).
const checkBatch = 1000

// maxCachedArg bounds the arguments whose verdicts are remembered, and
// maxCachedVerdicts their number: generated suites repeat the same few
// arguments ({exact: false}) thousands of times, and vetting one is
// enough, but remembering every distinct large argument would cost more
// than it saves.
const (
	maxCachedArg      = 256
	maxCachedVerdicts = 10_000
)

// checkKey identifies an argument vetting: the same plugin, matcher key
// and argument always get the same verdict.
type checkKey struct {
	plugin *plugin.Found
	key    string
	arg    string
}

// argChecker vets matcher arguments in bounded batches, reusing the
// verdict of an argument already vetted; errors keep the plan's order.
type argChecker struct {
	ctx  context.Context
	host *plugin.Host

	// The pending batch: requests, and for each the leaves it settles
	// (the first, then any repeat of a cacheable argument).
	reqs    []plugin.CheckRequest
	leaves  [][]pendingLeaf
	keys    []checkKey // zero for an argument too large to cache
	pending map[checkKey]int

	// secrets finds the suites' credential values in arguments, whose
	// verdicts the host must not remember on disk; nil when there are none.
	secrets *redact.Redactor

	next       int // sequence number of the next leaf
	verdicts   map[checkKey]error
	errs       []seqError
	pluginErrs []error
	seen       map[string]bool // plugins whose failure is reported
}

// pendingLeaf is a leaf waiting for a verdict, with its place in the plan.
type pendingLeaf struct {
	m   *config.Matcher
	seq int
}

// seqError is a rejected argument with its leaf's place in the plan.
type seqError struct {
	seq int
	err *config.Error
}

// add queues the argument of one leaf, or settles it from the cache.
func (c *argChecker) add(l plan.Leaf) {
	leaf := pendingLeaf{m: l.Matcher, seq: c.next}
	c.next++
	var k checkKey
	if len(l.Matcher.Arg) <= maxCachedArg {
		k = checkKey{plugin: l.Plugin, key: l.Matcher.Key, arg: string(l.Matcher.Arg)}
		if err, ok := c.verdicts[k]; ok {
			c.record(leaf, err)
			return
		}
		if i, ok := c.pending[k]; ok {
			c.leaves[i] = append(c.leaves[i], leaf)
			return
		}
		if c.pending == nil {
			c.pending = map[checkKey]int{}
		}
		c.pending[k] = len(c.reqs)
	}
	c.reqs = append(c.reqs, plugin.CheckRequest{Plugin: l.Plugin, Key: l.Matcher.Key, Argument: l.Matcher.Arg,
		Private: c.secrets != nil && c.secrets.Contains(string(l.Matcher.Arg))})
	c.leaves = append(c.leaves, []pendingLeaf{leaf})
	c.keys = append(c.keys, k)
	if len(c.reqs) == checkBatch {
		c.flush()
	}
}

// flush sends the pending batch and records its verdicts.
func (c *argChecker) flush() {
	if len(c.reqs) == 0 {
		return
	}
	for i, err := range c.host.Check(c.ctx, c.reqs) {
		for _, leaf := range c.leaves[i] {
			c.record(leaf, err)
		}
		if c.keys[i] != (checkKey{}) && len(c.verdicts) < maxCachedVerdicts {
			c.verdicts[c.keys[i]] = err
		}
	}
	c.reqs, c.leaves, c.keys, c.pending = c.reqs[:0], c.leaves[:0], c.keys[:0], nil
}

// record turns the verdict on one leaf's argument into an error, if any.
func (c *argChecker) record(leaf pendingLeaf, err error) {
	if err == nil {
		return
	}
	var pe *plugin.PluginError
	if errors.As(err, &pe) {
		if !c.seen[pe.Plugin] {
			c.seen[pe.Plugin] = true
			c.pluginErrs = append(c.pluginErrs, err)
		}
		return
	}
	m := leaf.m
	c.errs = append(c.errs, seqError{seq: leaf.seq, err: &config.Error{
		File: m.Pos.File, Line: m.Pos.Line, Col: m.Pos.Col, Pointer: m.Pos.Pointer + "/" + m.Key,
		Msg: invalidArgumentText(err.Error()),
	}})
}

// located returns the rejected arguments in plan order.
func (c *argChecker) located() config.Errors {
	slices.SortStableFunc(c.errs, func(a, b seqError) int { return a.seq - b.seq })
	out := make(config.Errors, len(c.errs))
	for i, e := range c.errs {
		out[i] = e.err
	}
	return out
}
