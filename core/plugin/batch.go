package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"sync"

	"github.com/mcptest/mcptest/sdk"
)

// MatchRequest is one assertion to evaluate in a plugin.
type MatchRequest struct {
	Plugin   *Found
	Key      string
	Actual   json.RawMessage
	Argument json.RawMessage
	Options  sdk.MatchOptions
}

// MatchOutcome is the verdict on one MatchRequest. Err is set when the item
// could not be evaluated (errored); a *PluginError there means the plugin
// itself failed.
type MatchOutcome struct {
	Pass      bool
	Score     *float64
	Failure   json.RawMessage
	Err       error
	ErrorKind sdk.ErrorKind
	// Plugin is name@version of the plugin that answered.
	Plugin string
}

// ErrItemFailed is matched (errors.Is) by per-item errors a plugin
// reported: the item could not be evaluated.
var ErrItemFailed = errors.New("matcher could not evaluate the assertion")

// itemError is a plugin's own message for an item it could not evaluate.
type itemError struct{ msg string }

func (e *itemError) Error() string        { return e.msg }
func (e *itemError) Is(target error) bool { return target == ErrItemFailed }

// Match evaluates requests, grouped by plugin and cut into batches of at
// most MaxBatchItems items and MaxBatchBytes bytes, with up to GOMAXPROCS
// concurrent calls per plugin. Outcomes come back in request order.
func (h *Host) Match(ctx context.Context, reqs []MatchRequest) []MatchOutcome {
	out := make([]MatchOutcome, len(reqs))
	groups := map[*Found][]int{}
	var order []*Found
	for i, r := range reqs {
		if _, ok := groups[r.Plugin]; !ok {
			order = append(order, r.Plugin)
		}
		groups[r.Plugin] = append(groups[r.Plugin], i)
	}
	var wg sync.WaitGroup
	for _, f := range order {
		idx := groups[f]
		label := f.Label()
		p, err := h.get(ctx, f)
		if err != nil {
			for _, i := range idx {
				out[i] = MatchOutcome{Err: err, ErrorKind: sdk.ErrorKindInternal, Plugin: label}
			}
			continue
		}
		if p.matcher == nil {
			err := newPluginError(f, errors.New("serves no matchers"), "")
			for _, i := range idx {
				out[i] = MatchOutcome{Err: err, Plugin: label}
			}
			continue
		}
		for _, chunk := range h.chunks(reqs, idx) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h.matchChunk(ctx, p, reqs, chunk, out)
			}()
		}
	}
	wg.Wait()
	return out
}

// minPipelinedChunk is the smallest chunk worth its own call when a large
// group is split for pipelining.
const minPipelinedChunk = 256

// chunks cuts idx into batches within the item and byte limits. An item
// larger than the byte limit travels alone. A large group is also split
// into up to GOMAXPROCS chunks of similar size: calls run concurrently, so
// the plugin decodes one chunk while it judges another and the host
// decodes answers meanwhile, instead of each side idling in turn.
func (h *Host) chunks(reqs []MatchRequest, idx []int) [][]int {
	limit := h.opts.MaxBatchItems
	if ways := min(runtime.GOMAXPROCS(0), len(idx)/minPipelinedChunk); ways > 1 {
		limit = min(limit, (len(idx)+ways-1)/ways)
	}
	var out [][]int
	var cur []int
	size := 0
	for _, i := range idx {
		r := reqs[i]
		o := &r.Options
		n := len(r.Actual) + len(r.Argument) + len(r.Key) + len(o.Raw) + len(o.TestID) + len(o.TestName) +
			len(o.Target) + len(o.Message) + len(o.SuiteFile) + len(o.SuiteDir) + 48
		if len(cur) > 0 && (len(cur) >= limit || size+n > h.opts.MaxBatchBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, i)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func (h *Host) matchChunk(ctx context.Context, p *proc, reqs []MatchRequest, chunk []int, out []MatchOutcome) {
	label := p.found.Label()
	fail := func(err error) {
		for _, i := range chunk {
			out[i] = MatchOutcome{Err: err, ErrorKind: sdk.ErrorKindInternal, Plugin: label}
		}
	}
	if d := p.deadErr(); d != nil {
		fail(d)
		return
	}
	select {
	case p.sem <- struct{}{}:
		defer func() { <-p.sem }()
	case <-ctx.Done():
		fail(ctx.Err())
		return
	}
	if len(chunk) == 1 && h.oversized != nil {
		if r := &reqs[chunk[0]]; len(r.Actual)+len(r.Argument) > h.opts.MaxBatchBytes {
			select {
			case h.oversized <- struct{}{}:
				defer func() { <-h.oversized }()
			case <-ctx.Done():
				fail(ctx.Err())
				return
			}
		}
	}
	buf := getChunkBuf(len(chunk))
	defer buf.release()
	items, res := buf.items, buf.results
	for j, i := range chunk {
		r := &reqs[i]
		items[j] = sdk.MatchItem{ID: uint64(j), Key: r.Key, Actual: r.Actual, Argument: r.Argument, Options: r.Options}
	}
	callCtx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	if err := p.matcher.MatchInto(callCtx, items, res); err != nil {
		if ctx.Err() != nil {
			fail(ctx.Err())
			return
		}
		fail(h.callFailed(p, callCtx, err))
		return
	}
	for j, i := range chunk {
		r := res[j]
		o := MatchOutcome{Pass: r.Pass, Score: r.Score, Failure: r.Failure, ErrorKind: r.ErrorKind, Plugin: label}
		if r.Error != "" {
			o.Pass = false
			o.Err = &itemError{msg: r.Error}
		}
		out[i] = o
	}
}

// CheckRequest is one matcher argument to validate before the run.
type CheckRequest struct {
	Plugin   *Found
	Key      string
	Argument json.RawMessage
}

// Check validates matcher arguments in their plugins; the result holds one
// error (or nil) per request. A plugin that cannot be started errors all of
// its requests.
func (h *Host) Check(ctx context.Context, reqs []CheckRequest) []error {
	out := make([]error, len(reqs))
	groups := map[*Found][]int{}
	for i, r := range reqs {
		groups[r.Plugin] = append(groups[r.Plugin], i)
	}
	var wg sync.WaitGroup
	for f, idx := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := h.get(ctx, f)
			if err == nil && p.matcher == nil {
				err = newPluginError(f, errors.New("serves no matchers"), "")
			}
			if err != nil {
				for _, i := range idx {
					out[i] = err
				}
				return
			}
			items := make([]sdk.CheckItem, len(idx))
			for j, i := range idx {
				items[j] = sdk.CheckItem{ID: uint64(j), Key: reqs[i].Key, Argument: reqs[i].Argument}
			}
			callCtx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
			defer cancel()
			res, err := p.matcher.Check(callCtx, items)
			if err != nil {
				err = h.callFailed(p, callCtx, err)
				for _, i := range idx {
					out[i] = err
				}
				return
			}
			for _, r := range res {
				if r.Error != "" && int(r.ID) < len(idx) {
					out[idx[r.ID]] = errors.New(r.Error)
				}
			}
		}()
	}
	wg.Wait()
	return out
}
