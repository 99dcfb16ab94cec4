package hostrpc

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// MatcherClient is the host-side client of a plugin's matchers.
type MatcherClient struct {
	clientBase
	c pluginv1.MatcherClient
	// packed sends batches in the packed encoding (UsePacked).
	packed bool
}

// UsePacked makes the client send Match batches in the packed encoding
// (packed.go). Turn it on only for a plugin whose description reports
// protocol minor PackedMinor or later; older SDKs ignore the packed field.
func (c *MatcherClient) UsePacked(on bool) { c.packed = on }

// Match sends one batch. The caller keeps batches within the plugin's
// message limit; results come back in item order.
func (c *MatcherClient) Match(ctx context.Context, items []pluginrpc.MatchItem) ([]pluginrpc.MatchItemResult, error) {
	out := make([]pluginrpc.MatchItemResult, len(items))
	if err := c.MatchInto(ctx, items, out); err != nil {
		return nil, err
	}
	return out, nil
}

// matchScratch is the request of one batch, kept for the next: a run sends
// hundreds of batches of up to a thousand items, and once the call has
// returned gRPC holds no reference to the request.
type matchScratch struct {
	req   pluginv1.MatchRequest
	items []pluginv1.MatchItem
	ptrs  []*pluginv1.MatchItem
	index map[matchCtxKey]uint32
}

// matchCtxKey identifies the test context of an item.
type matchCtxKey struct {
	id, name, file, dir string
	update              bool
}

var matchScratchPool = sync.Pool{New: func() any { return &matchScratch{index: map[matchCtxKey]uint32{}} }}

// release clears what the request refers to, so pooled scratch keeps no
// caller data alive, and returns it to the pool.
func (s *matchScratch) release() {
	clear(s.items)
	clear(s.ptrs)
	clear(s.index)
	s.req = pluginv1.MatchRequest{}
	matchScratchPool.Put(s)
}

// MatchInto is Match writing the results into out, which must have
// len(items) elements: a caller judging many batches reuses its slices.
func (c *MatcherClient) MatchInto(ctx context.Context, items []pluginrpc.MatchItem, out []pluginrpc.MatchItemResult) error {
	if len(out) != len(items) {
		return fmt.Errorf("match: %d result slots for %d items", len(out), len(items))
	}
	if c.packed && packable(items) {
		return c.matchPacked(ctx, items, out)
	}
	sc := matchScratchPool.Get().(*matchScratch)
	defer sc.release()
	if cap(sc.items) < len(items) {
		sc.items = make([]pluginv1.MatchItem, len(items))
		sc.ptrs = make([]*pluginv1.MatchItem, len(items))
	}
	sc.items, sc.ptrs = sc.items[:len(items)], sc.ptrs[:len(items)]
	req := &sc.req
	req.Items = sc.ptrs
	// Assertions of one test share its context; send each once.
	var last matchCtxKey
	var lastN uint32
	for i := range items {
		it := &items[i]
		o := &it.Options
		k := matchCtxKey{o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots}
		// A test's assertions arrive together: most items reuse the
		// previous item's context without a map lookup.
		n, ok := lastN, lastN > 0 && k == last
		if !ok {
			n, ok = sc.index[k]
		}
		if !ok {
			req.Contexts = append(req.Contexts, pluginrpc.ContextToProto(o))
			n = uint32(len(req.Contexts))
			sc.index[k] = n
		}
		last, lastN = k, n
		pi := &sc.items[i]
		req.Items[i] = pi
		pluginrpc.MatchItemToProto(pi, it, n)
	}
	resp, err := c.c.Match(ctx, req)
	if err != nil {
		return c.wrap("match", err)
	}
	results := resp.GetResults()
	// Plugins built with this SDK answer in item order; only others pay for
	// the lookup table.
	var byID map[uint64]*pluginv1.MatchResult
	for i, it := range items {
		var r *pluginv1.MatchResult
		if i < len(results) && results[i].GetId() == it.ID {
			r = results[i]
		} else {
			if byID == nil {
				byID = make(map[uint64]*pluginv1.MatchResult, len(results))
				for _, x := range results {
					byID[x.GetId()] = x
				}
			}
			r = byID[it.ID]
		}
		if r == nil {
			out[i] = pluginrpc.MatchItemResult{ID: it.ID, Error: "plugin returned no result for this item", ErrorKind: pluginrpc.ErrorKindInternal}
			continue
		}
		out[i] = pluginrpc.MatchResultFromProto(it.ID, r)
	}
	return nil
}

// MatchSourceInto is MatchInto for items given by src (whose item i has
// the id ids(i)): a host keeping its requests in a type of its own has
// them packed where they are. For a plugin without the packed encoding,
// or a batch with a huge value, the items are built and sent as MatchInto
// sends them.
func (c *MatcherClient) MatchSourceInto(ctx context.Context, src pluginrpc.ItemSource, ids func(i int) uint64, out []pluginrpc.MatchItemResult) error {
	n := src.Len()
	if len(out) != n {
		return fmt.Errorf("match: %d result slots for %d items", len(out), n)
	}
	if c.packed && packableSource(src) {
		return c.sendPacked(ctx, src, ids, out)
	}
	items := make([]pluginrpc.MatchItem, n)
	for i := range items {
		key, actual, argument, o := src.Item(i)
		items[i] = pluginrpc.MatchItem{ID: ids(i), Key: key, Actual: actual, Argument: argument, Options: *o}
	}
	return c.MatchInto(ctx, items, out)
}

// packableSource is packable for an ItemSource.
func packableSource(src pluginrpc.ItemSource) bool {
	for i := range src.Len() {
		_, actual, argument, _ := src.Item(i)
		if len(actual)+len(argument) > packedItemMax {
			return false
		}
	}
	return true
}

// packedItemMax is the largest value a packed batch carries: a huge one
// (a response of tens of megabytes under test) goes in a classic batch,
// which copies it once, where packing would copy it twice.
const packedItemMax = 1 << 20

// packable reports whether items suit the packed encoding.
func packable(items []pluginrpc.MatchItem) bool {
	for i := range items {
		if len(items[i].Actual)+len(items[i].Argument) > packedItemMax {
			return false
		}
	}
	return true
}

// matchPacked is MatchInto over the packed encoding.
func (c *MatcherClient) matchPacked(ctx context.Context, items []pluginrpc.MatchItem, out []pluginrpc.MatchItemResult) error {
	return c.sendPacked(ctx, pluginrpc.MatchItems(items), func(i int) uint64 { return items[i].ID }, out)
}

// sendPacked sends the items of src as one packed batch.
func (c *MatcherClient) sendPacked(ctx context.Context, src pluginrpc.ItemSource, ids func(i int) uint64, out []pluginrpc.MatchItemResult) error {
	packed, release := pluginrpc.EncodePackedSource(src)
	// gRPC has sent the request by the time Match returns.
	defer release()
	resp, err := c.c.Match(ctx, &pluginv1.MatchRequest{PackedItems: packed})
	if err != nil {
		return c.wrap("match", err)
	}
	if err := pluginrpc.DecodePackedResults(resp.GetPackedResults(), ids, out); err != nil {
		return fmt.Errorf("match: the plugin's packed results: %w", err)
	}
	return nil
}

// Check validates matcher arguments.
func (c *MatcherClient) Check(ctx context.Context, items []pluginrpc.CheckItem) ([]pluginrpc.CheckItemResult, error) {
	req := &pluginv1.CheckRequest{Items: make([]*pluginv1.CheckItem, len(items))}
	for i, it := range items {
		req.Items[i] = pluginrpc.CheckItemToProto(it)
	}
	resp, err := c.c.Check(ctx, req)
	if err != nil {
		return nil, c.wrap("check", err)
	}
	out := make([]pluginrpc.CheckItemResult, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		out = append(out, pluginrpc.CheckResultFromProto(r))
	}
	return out, nil
}
