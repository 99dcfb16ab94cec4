package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

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
	c, ok := m.(ArgumentChecker)
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
	items := req.GetItems()
	out := &pluginv1.MatchResponse{Results: make([]*pluginv1.MatchResult, len(items))}
	host := s.srv.hostClient()
	contexts := req.GetContexts()
	// One allocation for all results: batches are large and items cheap.
	results := make([]pluginv1.MatchResult, len(items))
	parallel(len(items), func(i int) {
		res := &results[i]
		s.matchOne(ctx, host, items[i], contexts, res)
		out.Results[i] = res
	})
	return out, nil
}

// matchOne evaluates one item into res; a panic or error errors this item
// only.
func (s *matcherServer) matchOne(ctx context.Context, host Host, it *pluginv1.MatchItem, contexts []*pluginv1.MatchContext, res *pluginv1.MatchResult) {
	res.Id = it.GetId()
	m, ok := s.srv.plugin.Matchers[it.GetKey()]
	if !ok {
		res.Error = fmt.Sprintf("plugin %q has no matcher %q", s.srv.plugin.Name, it.GetKey())
		res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INVALID_ARGUMENT
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.srv.logger.Error("matcher panicked", "key", it.GetKey(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res.Pass, res.HasScore, res.Score, res.FailureJson = false, false, 0, nil
			res.Error = fmt.Sprintf("matcher %q panicked: %v", it.GetKey(), r)
			res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_PANIC
		}
	}()
	in := MatchInput{
		Key:      it.GetKey(),
		Actual:   it.GetActualJson(),
		Argument: it.GetArgumentJson(),
		Host:     host,
		Options: MatchOptions{
			TestID: it.GetTestId(), TestName: it.GetTestName(), Target: it.GetTarget(), Message: it.GetMessage(),
			SuiteFile: it.GetSuiteFile(), SuiteDir: it.GetSuiteDir(), UpdateSnapshots: it.GetUpdateSnapshots(),
		},
	}
	if n := it.GetContext(); n > 0 {
		if int(n) > len(contexts) {
			res.Error = fmt.Sprintf("item refers to context %d of %d", n, len(contexts))
			res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INTERNAL
			return
		}
		c := contexts[n-1]
		o := &in.Options
		o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots = c.GetTestId(), c.GetTestName(), c.GetSuiteFile(), c.GetSuiteDir(), c.GetUpdateSnapshots()
	}
	if raw := it.GetOptionsJson(); len(raw) > 0 {
		in.Options.Raw = raw
	}
	r, err := m.Match(ctx, in)
	if err != nil {
		res.Error = err.Error()
		res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INTERNAL
		if errors.Is(err, ErrInvalidArgument) {
			res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INVALID_ARGUMENT
		}
		return
	}
	if r.Score != nil && !(*r.Score >= 0 && *r.Score <= 1) {
		res.Error = fmt.Sprintf("matcher %q returned score %v, outside [0, 1]", it.GetKey(), *r.Score)
		res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INTERNAL
		return
	}
	res.Pass = r.Pass
	if r.Score != nil {
		res.HasScore, res.Score = true, *r.Score
	}
	if !r.Pass && r.Failure != nil {
		b, err := appendFailure(nil, r.Failure)
		if err != nil {
			res.Error = fmt.Sprintf("encode failure: %v", err)
			res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INTERNAL
			return
		}
		res.FailureJson = b
	}
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
	Options MatchOptions
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
}

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
			req.Contexts = append(req.Contexts, &pluginv1.MatchContext{
				TestId: o.TestID, TestName: o.TestName, SuiteFile: o.SuiteFile, SuiteDir: o.SuiteDir, UpdateSnapshots: o.UpdateSnapshots,
			})
			n = uint32(len(req.Contexts))
			sc.index[k] = n
		}
		last, lastN = k, n
		pi := &sc.items[i]
		req.Items[i] = pi
		*pi = pluginv1.MatchItem{
			Id: it.ID, Key: it.Key,
			ActualJson: it.Actual, ArgumentJson: it.Argument, OptionsJson: o.Raw,
			Target: o.Target, Message: o.Message, Context: n,
		}
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
		res := MatchItemResult{ID: it.ID, Pass: r.GetPass(), Failure: r.GetFailureJson(), Error: r.GetError(), ErrorKind: ErrorKind(r.GetErrorKind())}
		if r.GetHasScore() {
			score := r.GetScore()
			res.Score = &score
		}
		out[i] = res
	}
	return nil
}

// Check validates matcher arguments.
func (c *MatcherClient) Check(ctx context.Context, items []CheckItem) ([]CheckItemResult, error) {
	req := &pluginv1.CheckRequest{Items: make([]*pluginv1.CheckItem, len(items))}
	for i, it := range items {
		req.Items[i] = &pluginv1.CheckItem{Id: it.ID, Key: it.Key, ArgumentJson: it.Argument}
	}
	resp, err := c.c.Check(ctx, req)
	if err != nil {
		return nil, c.wrap("check", err)
	}
	out := make([]CheckItemResult, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		out = append(out, CheckItemResult{ID: r.GetId(), Error: r.GetError()})
	}
	return out, nil
}
