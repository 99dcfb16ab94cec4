package plugin

import (
	"context"
	"runtime"
	"sync"

	"github.com/mcptest/mcptest/internal/slicepool"
)

// Coalescer gathers the assertions of tests finishing at about the same
// time into shared plugin calls: one gRPC round trip costs ~100x one item
// in a batch, so a run with many concurrent tests pays far less per
// assertion than one call per test would.
//
// It is the layer above the Host's batching: the Host splits one call into
// batches a plugin accepts, the Coalescer joins many small calls into one.
type Coalescer struct {
	host *Host
	in   chan *pending
	wg   sync.WaitGroup
}

// pending is one caller's requests waiting for a flush; dst is the
// memory the caller gave for the outcomes (nil: none).
type pending struct {
	ctx  context.Context
	reqs []MatchRequest
	dst  []MatchOutcome
	out  []MatchOutcome
	done chan struct{}
}

// maxCoalesce bounds the items gathered into one flush.
const maxCoalesce = 1000

// joinPool recycles the slices several callers' requests are joined in,
// joinedOutPool those their outcomes come back in.
var (
	joinPool      slicepool.Pool[MatchRequest]
	joinedOutPool slicepool.Pool[MatchOutcome]
)

// NewCoalescer starts the flushers of a Coalescer over host; Close stops
// them.
func NewCoalescer(host *Host) *Coalescer {
	c := &Coalescer{host: host, in: make(chan *pending, 256)}
	// Several flushers, so one slow batch does not hold the others back.
	for range max(2, runtime.GOMAXPROCS(0)) {
		c.wg.Add(1)
		go c.loop()
	}
	return c
}

// Match evaluates reqs, possibly together with other tests' requests. The
// outcomes are in the order of reqs; reqs is not kept after Match returns.
// It must not be called after Close.
func (c *Coalescer) Match(ctx context.Context, reqs []MatchRequest) []MatchOutcome {
	return c.MatchInto(ctx, reqs, nil)
}

// MatchInto is Match writing the outcomes into out's memory when it has
// room for them (Host.MatchInto); the caller may reuse out once it has
// read the outcomes.
func (c *Coalescer) MatchInto(ctx context.Context, reqs []MatchRequest, out []MatchOutcome) []MatchOutcome {
	if len(reqs) == 0 {
		return nil
	}
	p := &pending{ctx: ctx, reqs: reqs, dst: out, done: make(chan struct{})}
	c.in <- p
	<-p.done
	return p.out
}

func (c *Coalescer) loop() {
	defer c.wg.Done()
	for first := range c.in {
		batch := []*pending{first}
		n := len(first.reqs)
	drain:
		for n < maxCoalesce {
			select {
			case p, ok := <-c.in:
				if !ok {
					break drain
				}
				batch = append(batch, p)
				n += len(p.reqs)
			default:
				break drain
			}
		}
		c.flush(batch, n)
	}
}

func (c *Coalescer) flush(batch []*pending, n int) {
	// The batch runs under the first test's context; tests share plugins,
	// not deadlines, and every plugin call carries its own.
	ctx := context.WithoutCancel(batch[0].ctx)
	// A lone test's requests go as they are, and its outcomes straight
	// into its memory.
	if len(batch) == 1 {
		p := batch[0]
		p.out = c.host.MatchInto(ctx, p.reqs, p.dst)
		close(p.done)
		return
	}
	// Several are joined in pooled slices, which Host.MatchInto does not
	// keep, and each caller's outcomes are copied out.
	all := joinPool.Get(n)
	for _, p := range batch {
		all = append(all, p.reqs...)
	}
	defer joinPool.Put(all)
	out := c.host.MatchInto(ctx, all, joinedOutPool.Get(n))
	defer joinedOutPool.Put(out)
	off := 0
	for _, p := range batch {
		p.out = append(p.dst[:0], out[off:off+len(p.reqs)]...)
		off += len(p.reqs)
		close(p.done)
	}
}

// Close stops the flushers once the calls in flight are answered.
func (c *Coalescer) Close() {
	close(c.in)
	c.wg.Wait()
}
