package pluginrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// matcherServer serves a plugin's matchers.
type matcherServer struct {
	pluginv1.UnimplementedMatcherServer
	srv *pluginServer
}

func (s *matcherServer) Check(_ context.Context, req *pluginv1.CheckRequest) (*pluginv1.CheckResponse, error) {
	out := &pluginv1.CheckResponse{Results: make([]*pluginv1.CheckResult, len(req.GetItems()))}
	for i, it := range req.GetItems() {
		res := &pluginv1.CheckResult{Id: it.GetId()}
		if err := s.check(it); err != nil {
			res.Error = err.Error()
		}
		out.Results[i] = res
	}
	return out, nil
}

func (s *matcherServer) check(it *pluginv1.CheckItem) (err error) {
	m, ok := s.srv.plugin.Matchers[it.GetKey()]
	if !ok {
		return fmt.Errorf("plugin %q has no matcher %q", s.srv.plugin.Name, it.GetKey())
	}
	c, ok := m.(contract.ArgumentChecker)
	if !ok {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("argument check panicked: %v", r)
		}
	}()
	return c.CheckArgument(it.GetKey(), it.GetArgumentJson())
}

func (s *matcherServer) Match(ctx context.Context, req *pluginv1.MatchRequest) (*pluginv1.MatchResponse, error) {
	host := s.srv.hostClient()
	if packed := req.GetPackedItems(); len(packed) > 0 {
		return s.matchPacked(ctx, host, packed)
	}
	items := req.GetItems()
	out := &pluginv1.MatchResponse{Results: make([]*pluginv1.MatchResult, len(items))}
	contexts := req.GetContexts()
	// One allocation for all results: batches are large and items cheap.
	results := make([]pluginv1.MatchResult, len(items))
	parallel(len(items), func(i int) {
		it := items[i]
		res := &results[i]
		in := matchInputFromProto(it, host)
		var r MatchItemResult
		if n := it.GetContext(); n > 0 {
			if int(n) > len(contexts) {
				r = MatchItemResult{Error: fmt.Sprintf("item refers to context %d of %d", n, len(contexts)), ErrorKind: ErrorKindInternal}
			} else {
				applyContextFromProto(&in.Options, contexts[n-1])
			}
		}
		if r.Error == "" {
			r = s.evaluate(ctx, in)
		}
		matchResultToProto(res, it.GetId(), r)
		out.Results[i] = res
	})
	return out, nil
}

// matchPacked serves a batch in the packed encoding (packed.go).
func (s *matcherServer) matchPacked(ctx context.Context, host contract.Host, packed []byte) (*pluginv1.MatchResponse, error) {
	items, contexts, err := decodePackedItems(packed)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	results := make([]MatchItemResult, len(items))
	parallel(len(items), func(i int) {
		it := &items[i]
		in := contract.MatchInput{
			Key: it.key, Actual: it.actual, Argument: it.argument, Host: host,
			Options: contract.MatchOptions{Target: it.target, Message: it.message},
		}
		if len(it.options) > 0 {
			in.Options.Raw = it.options
		}
		if it.context > 0 {
			c := &contexts[it.context-1]
			o := &in.Options
			o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots = c.testID, c.testName, c.suiteFile, c.suiteDir, c.update
		}
		results[i] = s.evaluate(ctx, in)
	})
	return &pluginv1.MatchResponse{PackedResults: encodePackedResults(results)}, nil
}

// evaluate judges one assertion; a panic or error errors this item only.
func (s *matcherServer) evaluate(ctx context.Context, in contract.MatchInput) (res MatchItemResult) {
	m, ok := s.srv.plugin.Matchers[in.Key]
	if !ok {
		return MatchItemResult{Error: fmt.Sprintf("plugin %q has no matcher %q", s.srv.plugin.Name, in.Key), ErrorKind: ErrorKindInvalidArgument}
	}
	defer func() {
		if r := recover(); r != nil {
			s.srv.logger.Error("matcher panicked", "key", in.Key, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = MatchItemResult{Error: fmt.Sprintf("matcher %q panicked: %v", in.Key, r), ErrorKind: ErrorKindPanic}
		}
	}()
	r, err := m.Match(ctx, in)
	if err != nil {
		kind := ErrorKindInternal
		if errors.Is(err, contract.ErrInvalidArgument) {
			kind = ErrorKindInvalidArgument
		}
		return MatchItemResult{Error: err.Error(), ErrorKind: kind}
	}
	if r.Score != nil && !(*r.Score >= 0 && *r.Score <= 1) {
		return MatchItemResult{Error: fmt.Sprintf("matcher %q returned score %v, outside [0, 1]", in.Key, *r.Score), ErrorKind: ErrorKindInternal}
	}
	res = MatchItemResult{Pass: r.Pass, Score: r.Score}
	if !r.Pass && r.Failure != nil {
		b, err := appendFailure(nil, boundFailure(r.Failure))
		if err != nil {
			return MatchItemResult{Error: fmt.Sprintf("encode failure: %v", err), ErrorKind: ErrorKindInternal}
		}
		res.Failure = b
	}
	return res
}

// ErrorKind classifies a per-item error reported by a plugin.
type ErrorKind int

// The per-item error kinds.
const (
	ErrorKindNone ErrorKind = iota
	// ErrorKindInternal: the item could not be evaluated.
	ErrorKindInternal
	// ErrorKindInvalidArgument: the assertion is wrong as written.
	ErrorKindInvalidArgument
	// ErrorKindPanic: the plugin panicked on the item and recovered.
	ErrorKindPanic
)

// String names the kind as reports show it.
func (k ErrorKind) String() string {
	switch k {
	case ErrorKindInternal:
		return "internal"
	case ErrorKindInvalidArgument:
		return "invalid_argument"
	case ErrorKindPanic:
		return "panic"
	}
	return "none"
}

// MatchItem is one assertion sent by the host to a matcher plugin.
type MatchItem struct {
	ID       uint64
	Key      string
	Actual   json.RawMessage
	Argument json.RawMessage
	// Options is the per-assertion context; Options.Raw travels as JSON.
	Options contract.MatchOptions
}

// MatchItemResult is a plugin's verdict on one MatchItem.
type MatchItemResult struct {
	ID    uint64
	Pass  bool
	Score *float64
	// Failure is the structured failure as JSON, when the item failed.
	Failure json.RawMessage
	// Error is set when the item could not be evaluated.
	Error     string
	ErrorKind ErrorKind
}

// CheckItem is one matcher argument to validate before the run.
type CheckItem struct {
	ID       uint64
	Key      string
	Argument json.RawMessage
}

// CheckItemResult is the verdict on one CheckItem; Error is empty when the
// argument is acceptable.
type CheckItemResult struct {
	ID    uint64
	Error string
}

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

// PackedMinor is the protocol minor version from which plugins understand
// packed Match batches.
const PackedMinor = 1

// Match sends one batch. The caller keeps batches within the plugin's
// message limit; results come back in item order.
func (c *MatcherClient) Match(ctx context.Context, items []MatchItem) ([]MatchItemResult, error) {
	out := make([]MatchItemResult, len(items))
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
func (c *MatcherClient) MatchInto(ctx context.Context, items []MatchItem, out []MatchItemResult) error {
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
			req.Contexts = append(req.Contexts, contextToProto(o))
			n = uint32(len(req.Contexts))
			sc.index[k] = n
		}
		last, lastN = k, n
		pi := &sc.items[i]
		req.Items[i] = pi
		matchItemToProto(pi, it, n)
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
			out[i] = MatchItemResult{ID: it.ID, Error: "plugin returned no result for this item", ErrorKind: ErrorKindInternal}
			continue
		}
		out[i] = matchResultFromProto(it.ID, r)
	}
	return nil
}

// packedItemMax is the largest value a packed batch carries: a huge one
// (a response of tens of megabytes under test) goes in a classic batch,
// which copies it once, where packing would copy it twice.
const packedItemMax = 1 << 20

// packable reports whether items suit the packed encoding.
func packable(items []MatchItem) bool {
	for i := range items {
		if len(items[i].Actual)+len(items[i].Argument) > packedItemMax {
			return false
		}
	}
	return true
}

// matchPacked is MatchInto over the packed encoding.
func (c *MatcherClient) matchPacked(ctx context.Context, items []MatchItem, out []MatchItemResult) error {
	bufs := packedPool.Get().(*packedBuffers)
	// gRPC has encoded the request by the time Match returns.
	defer bufs.release()
	resp, err := c.c.Match(ctx, &pluginv1.MatchRequest{PackedItems: encodePackedItemsInto(bufs, items)})
	if err != nil {
		return c.wrap("match", err)
	}
	if err := decodePackedResults(resp.GetPackedResults(), func(i int) uint64 { return items[i].ID }, out); err != nil {
		return fmt.Errorf("match: the plugin's packed results: %w", err)
	}
	return nil
}

// Check validates matcher arguments.
func (c *MatcherClient) Check(ctx context.Context, items []CheckItem) ([]CheckItemResult, error) {
	req := &pluginv1.CheckRequest{Items: make([]*pluginv1.CheckItem, len(items))}
	for i, it := range items {
		req.Items[i] = checkItemToProto(it)
	}
	resp, err := c.c.Check(ctx, req)
	if err != nil {
		return nil, c.wrap("check", err)
	}
	out := make([]CheckItemResult, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		out = append(out, checkResultFromProto(r))
	}
	return out, nil
}
