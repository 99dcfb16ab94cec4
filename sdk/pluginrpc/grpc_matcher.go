package pluginrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
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
	// The request's memory goes back to the codec's pool when the call is
	// done: every result has been copied out of it by then (failures into
	// the scratch buffers, then into the response), and matchers may not
	// keep the input's bytes past Match (contract.MatchInput).
	defer releaseReceived(packed)
	scratch, ok := packedScratchKept.Get()
	if !ok {
		scratch = packedScratchPool.Get().(*packedScratch)
	}
	// Deferred, so it runs once the results are encoded.
	defer scratch.release()
	items, contexts, err := decodePackedItemsInto(packed, scratch)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	results := slices.Grow(scratch.results[:0], len(items))[:len(items)]
	scratch.results = results
	// Every range's buffer slot exists before the ranges start: growing
	// the slice from the ranges themselves, as they run at once, raced.
	scratch.growFailures(runtime.GOMAXPROCS(0))
	parallelRanges(len(items), func(w, lo, hi int) {
		sc := evalScratch{failures: scratch.failureBuf(w)}
		// The range's failures stay in the buffer until the results
		// are encoded; the grown buffer serves the next batch.
		defer scratch.keepFailureBuf(w, sc.failures)
		// One input for the range, every field set for each item (the
		// matcher gets a copy): building a fresh ~200-byte value per item
		// was a tenth of the SDK's own time per item.
		in := contract.MatchInput{Host: host}
		o := &in.Options
		var none packedContext
		for i := lo; i < hi; i++ {
			it := &items[i]
			in.Key, in.Actual, in.Argument = it.key, it.actual, it.argument
			o.Target, o.Message, o.Raw = it.target, it.message, nil
			if len(it.options) > 0 {
				o.Raw = it.options
			}
			c := &none
			if it.context > 0 {
				c = &contexts[it.context-1]
			}
			o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots = c.testID, c.testName, c.suiteFile, c.suiteDir, c.update
			results[i] = s.evaluateWith(ctx, &in, &sc)
		}
	})
	return &pluginv1.MatchResponse{PackedResults: encodePackedResultsPooled(results)}, nil
}

// packedScratch holds the item and result arrays of a packed batch for
// the next one: a thousand-item batch needs some 250 KB of them, which
// would otherwise be allocated, zeroed and scanned by the collector on
// every call.
type packedScratch struct {
	items   []packedItem
	results []MatchItemResult
	// The decoder's arrays: the string table and each string's span in
	// the batch, and the test contexts.
	table []string
	spans [][2]int
	ctxs  []packedContext
	// failures holds, per goroutine of parallelRanges, the buffer its
	// items' failure JSON was appended to: once the results are encoded
	// nothing refers to it, so the next batch appends to it again
	// instead of growing a new one from failureScratchSize.
	failures [][]byte
}

// growFailures makes room for the failure buffers of n ranges. It runs
// before the ranges start, so failureBuf and keepFailureBuf, called from
// the ranges at once, only read the slice and write their own element.
func (sc *packedScratch) growFailures(n int) {
	for len(sc.failures) < n {
		sc.failures = append(sc.failures, nil)
	}
}

// failureBuf returns range w's failure buffer, empty; nil for a range
// growFailures made no room for (GOMAXPROCS raised in between).
func (sc *packedScratch) failureBuf(w int) []byte {
	if w >= len(sc.failures) {
		return nil
	}
	return sc.failures[w][:0]
}

// keepFailureBuf keeps range w's grown buffer for the next batch.
func (sc *packedScratch) keepFailureBuf(w int, buf []byte) {
	if w < len(sc.failures) {
		sc.failures[w] = buf[:0]
	}
}

var packedScratchPool = sync.Pool{New: func() any { return new(packedScratch) }}

// packedScratchKept keeps the arrays of the batches in flight across
// collections (the plugin collects every few batches, which would empty
// packedScratchPool); the pool takes what does not fit.
var packedScratchKept = NewKeepList[*packedScratch](4)

// packedScratchMax is the most items whose arrays are kept for reuse.
const packedScratchMax = 4096

// release clears the arrays (they refer to the request and the failure
// buffers) and pools them, unless they grew past packedScratchMax.
func (sc *packedScratch) release() {
	if cap(sc.items) > packedScratchMax || cap(sc.results) > packedScratchMax ||
		cap(sc.table) > 4*packedScratchMax || cap(sc.ctxs) > packedScratchMax {
		return
	}
	for w, f := range sc.failures {
		if cap(f) > failureScratchMax || w >= failureScratchWorkers {
			sc.failures[w] = nil
		} else {
			sc.failures[w] = f[:0]
		}
	}
	// Only what this batch used: every batch writes its arrays from the
	// start up to their length (decodePackedItemsInto and matchPacked set
	// the lengths before writing, even on a decode error), and the release
	// of the batches before left the rest zero. Clearing to the capacity
	// cleared a thousand items' worth after every batch however small it
	// was (~1% of the text plugin's time in BenchmarkJudge100k, whose
	// batches average ~215 items).
	clear(sc.items)
	clear(sc.results)
	clear(sc.table)
	clear(sc.ctxs)
	sc.items, sc.results, sc.table, sc.spans, sc.ctxs = sc.items[:0], sc.results[:0], sc.table[:0], sc.spans[:0], sc.ctxs[:0]
	if packedScratchKept.Put(sc) {
		return
	}
	packedScratchPool.Put(sc)
}

// evalScratch is what one goroutine keeps from one item to the next while
// it judges its range of a batch.
type evalScratch struct {
	// key and m are the last matcher looked up: neighbouring items mostly
	// share a key, and the lookup hashes it.
	key string
	m   contract.Matcher
	// failures holds the failure JSON of the range's items, one after the
	// other, instead of an allocation per failure; a result's Failure is a
	// slice of it (an earlier array when append had to grow it).
	failures []byte
}

// failureScratchSize is the first size of evalScratch.failures.
const failureScratchSize = 8 << 10

// failureScratchMax is the largest failure buffer kept for the next batch
// (a batch of huge failures leaves its buffer to the collector), and
// failureScratchWorkers how many ranges' buffers a scratch keeps: with
// packedScratchKept's four scratches, at most 4 MiB stay alive for good
// however many CPUs the plugin has.
const (
	failureScratchMax     = 128 << 10
	failureScratchWorkers = 8
)

// evaluate judges one assertion; a panic or error errors this item only.
func (s *matcherServer) evaluate(ctx context.Context, in contract.MatchInput) MatchItemResult {
	return s.evaluateWith(ctx, &in, nil)
}

// evaluateWith is evaluate with scratch state kept across the items of a
// range (sc may be nil).
// in is a pointer only to spare a copy of the input per item; it is not
// kept.
func (s *matcherServer) evaluateWith(ctx context.Context, in *contract.MatchInput, sc *evalScratch) (res MatchItemResult) {
	var m contract.Matcher
	ok := true
	if sc != nil && sc.m != nil && sc.key == in.Key {
		m = sc.m
	} else {
		m, ok = s.srv.plugin.Matchers[in.Key]
		if ok && sc != nil {
			sc.key, sc.m = in.Key, m
		}
	}
	if !ok {
		return MatchItemResult{Error: fmt.Sprintf("plugin %q has no matcher %q", s.srv.plugin.Name, in.Key), ErrorKind: ErrorKindInvalidArgument}
	}
	defer func() {
		if r := recover(); r != nil {
			s.srv.logger.Error("matcher panicked", "key", in.Key, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = MatchItemResult{Error: fmt.Sprintf("matcher %q panicked: %v", in.Key, r), ErrorKind: ErrorKindPanic}
		}
	}()
	r, err := m.Match(ctx, *in)
	if err != nil && errors.Is(err, contract.ErrNoModelKey) {
		// Nothing was judged: the item waits for a key, it did not fail.
		return MatchItemResult{Deferred: err.Error()}
	}
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
	if r.Deferred != "" {
		return MatchItemResult{Deferred: r.Deferred}
	}
	res = MatchItemResult{Pass: r.Pass, Score: r.Score}
	if r.Eval != nil {
		b, err := json.Marshal(r.Eval)
		if err != nil {
			return MatchItemResult{Error: fmt.Sprintf("encode eval: %v", err), ErrorKind: ErrorKindInternal}
		}
		res.Eval = b
	}
	if !r.Pass && r.Failure != nil {
		var dst []byte
		if sc != nil {
			if sc.failures == nil {
				sc.failures = make([]byte, 0, failureScratchSize)
			}
			dst = sc.failures
		}
		b, err := appendFailure(dst, boundFailure(r.Failure), in)
		if err != nil {
			return MatchItemResult{Error: fmt.Sprintf("encode failure: %v", err), ErrorKind: ErrorKindInternal}
		}
		// The failure is what this call appended; its capacity ends there,
		// so nothing appended later can reach into it.
		res.Failure = b[len(dst):len(b):len(b)]
		if sc != nil {
			sc.failures = b
		}
	}
	return res
}
