package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
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
	ErrorKind pluginrpc.ErrorKind
	// Plugin is name@version of the plugin that answered.
	Plugin string
	// Deferred is set when the plugin could not judge the item because a
	// model it needs has no key; the text names the variable.
	Deferred string
	// Eval is the grade behind a model-graded verdict (a report.Eval as
	// JSON), as the plugin sent it; nil otherwise.
	Eval json.RawMessage
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
	return h.MatchInto(ctx, reqs, nil)
}

// MatchInto is Match writing the outcomes into out's memory when it has
// room for them (a caller judging test after test reuses one slice
// instead of allocating ~120 bytes of outcome per assertion for the
// collector to scan and free); every outcome is written. It returns the
// outcomes, out[:len(reqs)] or a new slice.
func (h *Host) MatchInto(ctx context.Context, reqs []MatchRequest, out []MatchOutcome) []MatchOutcome {
	if cap(out) < len(reqs) {
		out = make([]MatchOutcome, len(reqs))
	}
	out = out[:len(reqs)]
	groups, order := groupByPlugin(reqs)
	var wg sync.WaitGroup
	// The last chunk runs on this goroutine (the coalescer's flushers live
	// for the run) rather than on a new one: most calls are one chunk, and
	// a fresh goroutine grew its stack again through gRPC on every call.
	// A chunk is held back only until the next one is known, and never
	// while a plugin is being started.
	var held func()
	launch := func() {
		if held != nil {
			wg.Add(1)
			go func(run func()) {
				defer wg.Done()
				run()
			}(held)
			held = nil
		}
	}
	for _, f := range order {
		launch()
		label := f.Label()
		// Assertions a never-started plugin promised to pass are not
		// worth its start (reflexive.go).
		idx := h.passReflexive(f, reqs, groups[f], out, label)
		if len(idx) == 0 {
			continue
		}
		inc, err := h.get(ctx, f)
		if err == nil && inc.matcher == nil {
			err = newPluginError(f, errors.New("serves no matchers"), "")
		}
		if err != nil {
			for _, i := range idx {
				out[i] = MatchOutcome{Err: err, ErrorKind: pluginrpc.ErrorKindInternal, Plugin: label}
			}
			continue
		}
		p, _ := h.proc(f)
		for _, chunk := range h.chunks(reqs, idx) {
			launch()
			held = func() { h.matchChunk(ctx, p, reqs, chunk, out) }
		}
	}
	if held != nil {
		held()
	}
	wg.Wait()
	return out
}

// groupByPlugin returns the indexes of reqs per plugin, and the plugins in
// the order they first appear. Requests are large structs, so they are
// looked at in place; and a batch for one plugin (nearly all of them) is
// recognised without building the map.
func groupByPlugin(reqs []MatchRequest) (map[*Found][]int, []*Found) {
	if len(reqs) == 0 {
		return nil, nil
	}
	first := reqs[0].Plugin
	one := true
	for i := range reqs {
		if reqs[i].Plugin != first {
			one = false
			break
		}
	}
	if one {
		return map[*Found][]int{first: seq(len(reqs))}, []*Found{first}
	}
	groups := map[*Found][]int{}
	var order []*Found
	for i := range reqs {
		p := reqs[i].Plugin
		if _, ok := groups[p]; !ok {
			order = append(order, p)
		}
		groups[p] = append(groups[p], i)
	}
	return groups, order
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
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
	// A chunk is a run of idx: sub-slices, not copies.
	var out [][]int
	start, size := 0, 0
	for k, i := range idx {
		r := &reqs[i]
		o := &r.Options
		n := len(r.Actual) + len(r.Argument) + len(r.Key) + len(o.Raw) + len(o.TestID) + len(o.TestName) +
			len(o.Target) + len(o.Message) + len(o.SuiteFile) + len(o.SuiteDir) + 48
		if cur := k - start; cur > 0 && (cur >= limit || size+n > h.opts.MaxBatchBytes) {
			out = append(out, idx[start:k:k])
			start, size = k, 0
		}
		size += n
	}
	if start < len(idx) {
		out = append(out, idx[start:len(idx):len(idx)])
	}
	return out
}

func (h *Host) matchChunk(ctx context.Context, p *proc, reqs []MatchRequest, chunk []int, out []MatchOutcome) {
	label := p.found.Label()
	fail := func(err error) {
		for _, i := range chunk {
			out[i] = MatchOutcome{Err: err, ErrorKind: pluginrpc.ErrorKindInternal, Plugin: label}
		}
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
	res := buf.results
	src := chunkSource{reqs: reqs, chunk: chunk}
	// A call cut short because another call hung is sent again, to the
	// restarted plugin; the bound covers the restart and a second hang.
	var err error
	for range maxHangRestarts + 2 {
		var inc *incarnation
		if inc, err = h.get(ctx, p.found); err != nil {
			fail(err)
			return
		}
		callCtx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
		err = inc.matcher.MatchSourceInto(callCtx, src, chunkID, res)
		if err == nil {
			cancel()
			break
		}
		if ctx.Err() != nil {
			cancel()
			fail(ctx.Err())
			return
		}
		err = h.callFailed(p, inc, callCtx, err, testsOf(reqs, chunk))
		cancel()
		if !errors.Is(err, errCollateral) {
			fail(err)
			return
		}
	}
	if err != nil {
		fail(newPluginError(p.found, err, ""))
		return
	}
	for j, i := range chunk {
		out[i] = outcomeOf(&res[j], label)
	}
}

// outcomeOf turns a plugin's result into an outcome, erroring what no
// verdict can be built from: a plugin's output is not trusted to be sane.
func outcomeOf(r *pluginrpc.MatchItemResult, label string) MatchOutcome {
	o := MatchOutcome{Pass: r.Pass, Score: r.Score, Failure: r.Failure, ErrorKind: r.ErrorKind, Plugin: label, Eval: r.Eval}
	switch {
	case r.Error != "":
		o.Pass = false
		o.Err = &itemError{msg: r.Error}
	case r.Deferred != "":
		// Nothing was judged: a deferred item is never a pass.
		o.Pass, o.Score, o.Failure, o.Eval, o.Deferred = false, nil, nil, nil, r.Deferred
	case r.Score != nil && (math.IsNaN(*r.Score) || math.IsInf(*r.Score, 0) || *r.Score < 0 || *r.Score > 1):
		o.Pass, o.Score, o.ErrorKind = false, nil, pluginrpc.ErrorKindInternal
		o.Err = &itemError{msg: fmt.Sprintf("the plugin returned the score %v; a score is a number from 0 to 1", *r.Score)}
	}
	return o
}

// testsOf names the tests of a chunk for messages: `test "a"` or
// `test "a" and 3 others`.
func testsOf(reqs []MatchRequest, chunk []int) string {
	seen := map[string]bool{}
	first := ""
	for _, i := range chunk {
		name := reqs[i].Options.TestName
		if name == "" {
			name = reqs[i].Options.TestID
		}
		if !seen[name] {
			if len(seen) == 0 {
				first = name
			}
			seen[name] = true
		}
	}
	switch len(seen) {
	case 0:
		return "an assertion"
	case 1:
		return fmt.Sprintf("test %q", first)
	}
	return fmt.Sprintf("test %q and %d others", first, len(seen)-1)
}

// CheckRequest is one matcher argument to validate before the run.
type CheckRequest struct {
	Plugin   *Found
	Key      string
	Argument json.RawMessage
	// Private marks an argument that holds a secret: its verdict is never
	// remembered on disk (vetcache.go).
	Private bool
}

// Check validates matcher arguments in their plugins; the result holds one
// error (or nil) per request. A verdict remembered from an earlier run of
// a plugin that vets purely is used without asking (or starting) the
// plugin (vetcache.go). A plugin that cannot be started errors all of its
// requests.
func (h *Host) Check(ctx context.Context, reqs []CheckRequest) []error {
	out := make([]error, len(reqs))
	keys := make([]string, len(reqs))
	groups := map[*Found][]int{}
	for i, r := range reqs {
		if keys[i] = h.vetKeyOf(r); keys[i] != "" {
			if verdict, ok := h.vetting.lookup(keys[i]); ok {
				out[i] = verdict
				continue
			}
		}
		groups[r.Plugin] = append(groups[r.Plugin], i)
	}
	var wg sync.WaitGroup
	for f, idx := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inc, err := h.get(ctx, f)
			if err == nil && inc.matcher == nil {
				err = newPluginError(f, errors.New("serves no matchers"), "")
			}
			if err != nil {
				for _, i := range idx {
					out[i] = err
				}
				return
			}
			items := make([]pluginrpc.CheckItem, len(idx))
			for j, i := range idx {
				items[j] = pluginrpc.CheckItem{ID: uint64(j), Key: reqs[i].Key, Argument: reqs[i].Argument}
			}
			callCtx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
			defer cancel()
			res, err := inc.matcher.Check(callCtx, items)
			if err != nil {
				p, _ := h.proc(f)
				err = h.callFailed(p, inc, callCtx, err, "checking matcher arguments")
				if errors.Is(err, errCollateral) {
					// Not the arguments' fault: say it is the plugin's.
					err = newPluginError(f, err, "")
				}
				for _, i := range idx {
					out[i] = err
				}
				return
			}
			// An argument the plugin said nothing about is not vetted:
			// that is an error, not a pass.
			answered := make([]bool, len(idx))
			for _, r := range res {
				if r.ID >= uint64(len(idx)) {
					continue
				}
				answered[r.ID] = true
				if r.Error != "" {
					out[idx[r.ID]] = errors.New(r.Error)
				}
			}
			for j, ok := range answered {
				if !ok {
					out[idx[j]] = newPluginError(f, fmt.Errorf("%w: the plugin returned no verdict on this argument", ErrBadResult), "")
				} else if k := keys[idx[j]]; k != "" {
					h.vetting.record(k, out[idx[j]])
				}
			}
		}()
	}
	wg.Wait()
	h.reflexive.noteVetted(reqs, out, h.neverStarted)
	return out
}
