package assert

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/slicepool"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// requestPool recycles the plugin requests of a test, the largest
// allocation per assertion, once the verdicts are back; outcomePool the
// outcomes (Judge.MatchInto), once they are read.
var (
	requestPool slicepool.Pool[plugin.MatchRequest]
	outcomePool slicepool.Pool[plugin.MatchOutcome]
)

// Judge judges tests' expect entries. It holds only what judging needs
// from the run; the zero value of every field but Match is usable. A
// Judge must not be copied once used.
type Judge struct {
	// Match has plugins judge the requests and returns their outcomes in
	// order (plugin.Coalescer.Match, or plugin.Host.Match).
	Match func(ctx context.Context, reqs []plugin.MatchRequest) []plugin.MatchOutcome
	// MatchInto, when set, is used instead of Match: it writes the
	// outcomes into the memory it is given (plugin.Coalescer.MatchInto),
	// which the judge reuses from test to test instead of leaving ~120
	// bytes per assertion to the collector.
	MatchInto func(ctx context.Context, reqs []plugin.MatchRequest, out []plugin.MatchOutcome) []plugin.MatchOutcome
	// Redact scrubs secrets from failures and errors.
	Redact *redact.Redactor
	// OnPluginError is told of every verdict a plugin could not reach, for
	// the run's errors; nil ignores them.
	OnPluginError func(error)
	// Transform runs an entry's transform on the value extracted at its
	// target and returns the new value, or else the entry's failure
	// object; nil leaves values as extracted.
	Transform func(ctx context.Context, t *plan.Test, a *config.Assertion, actual json.RawMessage) (json.RawMessage, json.RawMessage)
	// UpdateSnapshots is passed to matchers (--update-snapshots).
	UpdateSnapshots bool
	// RequireModels errors an assertion a plugin deferred for want of a
	// model key, instead of reporting it deferred (--require-models).
	RequireModels bool

	// labels holds the label (name@version) of each plugin that judged an
	// assertion, made once instead of once per test.
	labels sync.Map // *plugin.Found -> string
}

// Test evaluates the test's expect entries against the envelope. Targets
// are resolved here; every matcher a plugin judges (plain assertions, the
// leaves of compositions, the members of assert-sets) goes out in one
// coalesced batch; then compositions and assert-sets are combined in the
// core (tree.go), reading the verdicts back in the order they were sent.
func (jd *Judge) Test(ctx context.Context, t *plan.Test, envelope json.RawMessage) []rpt.Assertion {
	if len(t.Assertions) == 0 {
		return nil
	}
	j := jd.newJudging(ctx, t, envelope)
	out := j.run()
	j.release()
	return out
}

// Result is Test for the envelope {"result": result}, read straight from
// the result's bytes instead of copying them into an envelope first: a
// response of tens of megabytes is held once.
func (jd *Judge) Result(ctx context.Context, t *plan.Test, result json.RawMessage) []rpt.Assertion {
	if len(t.Assertions) == 0 {
		return nil
	}
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	j := jd.newJudging(ctx, t, result)
	j.underResult = true
	out := j.run()
	j.release()
	return out
}

// run prepares every entry, has the plugins judge them and reads the
// verdicts back.
func (j *judging) run() []rpt.Assertion {
	jd, ctx, t := j.jd, j.ctx, j.t
	weighted := t.Options != nil && t.Options.Threshold != nil
	out := make([]rpt.Assertion, len(t.Assertions))
	plain := j.plain[:0]
	for i, a := range t.Assertions {
		j.prepareInto(&out[i], i, a, weighted)
		plain = append(plain, a.Members == nil && a.Plugin != nil)
	}
	j.plain = plain
	if jd.MatchInto != nil {
		j.outs = jd.MatchInto(ctx, j.reqs, outcomePool.Get(len(j.reqs)))
	} else {
		j.outs = jd.Match(ctx, j.reqs)
	}
	// The verdicts are read from outs alone; the requests can serve the
	// next test.
	requestPool.Put(j.reqs)
	j.reqs = nil
	for i, a := range t.Assertions {
		if plain[i] {
			// finish's common case, told apart without reading the
			// planned assertion again: the wait for the verdicts has
			// likely moved it out of this core's caches.
			if res := &out[i]; res.Status == "" {
				j.jd.applyOutcome(res, &j.outs[j.cur])
				j.cur++
			}
			continue
		}
		j.finish(&out[i], a)
	}
	// Everything finish kept of an outcome (failure, error, eval) is a
	// value of its own, not the outcome: the memory can serve the next
	// test.
	if jd.MatchInto != nil {
		outcomePool.Put(j.outs)
		j.outs = nil
	}
	return out
}

// judging is the state of judging one test: the requests gathered by
// prepare, then the verdicts finish reads back with a cursor.
type judging struct {
	jd  *Judge
	ctx context.Context
	t   *plan.Test
	// doc is the JSON the targets are read from, in place (never decoded
	// as a whole): the envelope, or with underResult the result alone,
	// read as {"result": doc}.
	doc         json.RawMessage
	underResult bool
	// fill is the normalisation targets see (isError on tool results).
	fill      *target.Fill
	decodeErr error
	reqs      []plugin.MatchRequest
	outs      []plugin.MatchOutcome
	cur       int               // next verdict to read
	actuals   []json.RawMessage // the values compositions judged, in order
	acur      int               // next of actuals to read
	// trial is the MatchOptions.Raw of the test's requests when it is a
	// trial, made once.
	trial json.RawMessage
	// plain tells, for each entry, whether it is a plain assertion (one
	// leaf, its plugin's verdict applied as it is).
	plain []bool
	// lastPlugin and lastLabel memoise the name@version of the plugin of
	// the previous assertion: most tests use one plugin throughout.
	lastPlugin *plugin.Found
	lastLabel  string
	// values memoises the JSON text at the first targets extracted: a
	// test's assertions mostly look at a few targets (the text content, a
	// structured field), and reading the document again would give the
	// same bytes.
	values  [maxMemoTargets]targetValue
	nvalues int
}

// maxMemoTargets bounds the targets a test's judging memoises; later ones
// are extracted each time, so a test with many targets costs no more per
// assertion than without the memo.
const maxMemoTargets = 8

// targetValue is the JSON text at one target of the envelope.
type targetValue struct {
	target string
	actual json.RawMessage
}

// newJudging starts judging t against doc. A document that is not JSON
// errors every entry, with encoding/json's account of what is wrong.
func (jd *Judge) newJudging(ctx context.Context, t *plan.Test, doc json.RawMessage) *judging {
	j, _ := judgingPool.Get().(*judging)
	if j == nil {
		j = new(judging)
	}
	*j = judging{jd: jd, ctx: ctx, t: t, doc: doc, reqs: requestPool.Get(len(t.Assertions)), actuals: j.actuals, plain: j.plain}
	if !jsonx.Valid(doc) {
		if _, err := jsonx.DecodeSlow(doc); err != nil {
			j.decodeErr = err
		} else {
			j.decodeErr = errors.New("invalid JSON")
		}
	}
	j.fill = t.ResultFill()
	return j
}

// judgingPool recycles the state of judging a test (~500 bytes, the
// target memo most of it) from one test to the next.
var judgingPool sync.Pool // of *judging

// release gives j back once its test is judged, holding nothing of the
// test: the results run returned are values of their own.
func (j *judging) release() {
	clear(j.actuals)
	*j = judging{actuals: j.actuals[:0], plain: j.plain[:0]}
	judgingPool.Put(j)
}

// prepare starts the result of one entry and queues its leaves; see
// prepareInto.
func (j *judging) prepare(i int, a *plan.Assertion, weighted bool) rpt.Assertion {
	var res rpt.Assertion
	j.prepareInto(&res, i, a, weighted)
	return res
}

// prepareInto starts the result of one entry in res (zero) and queues
// its leaves. An entry whose value cannot be had (a missing target, a
// response that is not JSON) is decided here and queues nothing. The
// result is written where it stays: a result is ~200 bytes, and
// returning it by value copied it twice per assertion.
func (j *judging) prepareInto(res *rpt.Assertion, i int, a *plan.Assertion, weighted bool) {
	tgt := a.Spec.Target
	res.Index, res.Target, res.Matcher, res.Message, res.Name = i, tgt, a.Spec.Matcher.Key, a.Spec.Message, a.Spec.Name
	if weighted {
		w := a.Spec.Weight
		res.Weight = &w
	}
	if a.Members != nil {
		// A set counts as one unit; its members are weighed inside it.
		set := a.Spec.Set
		th, w := set.Threshold, set.Weight
		res.Matcher, res.Threshold, res.Weight = setMatcher, &th, &w
		res.Assertions = make([]rpt.Assertion, len(a.Members))
		for k, m := range a.Members {
			j.prepareInto(&res.Assertions[k], k, m, true)
		}
		return
	}
	if a.Plugin != nil {
		if a.Plugin != j.lastPlugin {
			j.lastPlugin, j.lastLabel = a.Plugin, j.jd.pluginLabel(a.Plugin)
		}
		res.Plugin = j.lastLabel
	}
	actual, ok := j.value(a, tgt, res)
	if !ok {
		return
	}
	if a.Plugin != nil {
		// The common case, kept free of closures: one leaf.
		j.request(a.Plugin, &a.Spec.Matcher, actual, tgt, a.Spec.Message)
		return
	}
	j.actuals = append(j.actuals, actual)
	a.Leaves(func(l plan.Leaf) {
		j.request(l.Plugin, l.Matcher, actual, tgt, a.Spec.Message)
	})
}

// request queues one leaf for its plugin. The request (~230 bytes) is
// written field by field where it stays, in the spare capacity of the
// pooled slice (zeroed, and every field is set anyway), rather than built
// aside and copied in.
func (j *judging) request(p *plugin.Found, m *config.Matcher, actual json.RawMessage, tgt, message string) {
	n := len(j.reqs)
	if n < cap(j.reqs) {
		j.reqs = j.reqs[:n+1]
	} else {
		j.reqs = append(j.reqs, plugin.MatchRequest{})
	}
	r := &j.reqs[n]
	r.Plugin, r.Key, r.Actual, r.Argument = p, m.Key, actual, m.Arg
	o := &r.Options
	o.TestID, o.TestName, o.Target, o.Message = j.t.ID, j.t.Name, tgt, message
	o.SuiteFile, o.SuiteDir, o.UpdateSnapshots = j.t.Suite.File, j.t.Suite.Dir, j.jd.UpdateSnapshots
	if j.t.Trial > 0 && j.trial == nil {
		// Model-graded matchers put the trial in their requests' seat, so
		// the host's verdict cache asks again for each trial. One copy
		// serves the test's requests.
		j.trial = trialOption(j.t.Trial)
	}
	o.Raw = j.trial
}

// value extracts the JSON value at the entry's target (tgt is its text)
// and runs the entry's transform on it. When that fails, it decides res
// (failed or errored) and reports false.
func (j *judging) value(a *plan.Assertion, tgt string, res *rpt.Assertion) (json.RawMessage, bool) {
	actual, ok := j.memoised(tgt)
	if !ok && j.decodeErr != nil {
		res.Status = rpt.StatusErrored
		res.Error = "the response is not valid JSON: " + j.decodeErr.Error()
		return nil, false
	}
	if !ok {
		var err error
		if j.underResult {
			actual, err = a.Target.ExtractRawUnder("result", j.doc, j.fill)
		} else {
			actual, err = a.Target.ExtractRaw(j.doc, j.fill)
		}
		if err != nil {
			res.Status = rpt.StatusFailed
			res.Failure = targetFailure(a, err)
			return nil, false
		}
		j.memoise(tgt, actual)
	}
	if j.jd.Transform != nil {
		var failure json.RawMessage
		actual, failure = j.jd.Transform(j.ctx, j.t, a.Spec, actual)
		if failure != nil {
			res.Status = rpt.StatusFailed
			res.Failure = j.jd.Redact.Bytes(failure)
			return nil, false
		}
	}
	return actual, true
}

// memoised returns the JSON text at target if it was memoised. The plan
// interns the targets of its assertions (plan.Assertion.Spec), so the
// comparison that finds one is of two equal addresses.
func (j *judging) memoised(target string) (json.RawMessage, bool) {
	for _, v := range j.values[:j.nvalues] {
		if v.target == target {
			return v.actual, true
		}
	}
	return nil, false
}

// memoise remembers the JSON text at target, while there is room.
func (j *judging) memoise(target string, actual json.RawMessage) {
	if j.nvalues < len(j.values) {
		j.values[j.nvalues] = targetValue{target, actual}
		j.nvalues++
	}
}

// finish completes the result of one entry from the plugins' verdicts.
func (j *judging) finish(res *rpt.Assertion, a *plan.Assertion) {
	switch {
	case a.Members != nil:
		for k, m := range a.Members {
			j.finish(&res.Assertions[k], m)
		}
		finishSet(res, a)
	case res.Status != "":
		// Decided by prepare; nothing was queued for it.
	case a.Plugin != nil:
		j.jd.applyOutcome(res, &j.outs[j.cur])
		j.cur++
	default:
		j.finishComposition(res, a)
	}
}

// applyOutcome sets a plain assertion's result from its plugin's verdict
// (read in place: an outcome is ~120 bytes).
func (jd *Judge) applyOutcome(a *rpt.Assertion, o *plugin.MatchOutcome) {
	a.Score = o.Score
	if o.Err == nil && o.Deferred == "" {
		a.Eval = jd.evalOf(o.Eval)
	}
	switch {
	case o.Err != nil:
		a.Status = rpt.StatusErrored
		a.Error = jd.outcomeError(*o)
	case o.Deferred != "":
		a.Status, a.Error = jd.deferred(o.Deferred)
	case o.Pass:
		a.Status = rpt.StatusPassed
	default:
		a.Status = rpt.StatusFailed
		a.Failure = boundFailure(jd.Redact.Bytes(o.Failure))
	}
}

// outcomeError is the message of a verdict that could not be reached,
// unchanged but for redaction and the invalid-argument prefix; a plugin
// failure is also noted for the run's errors.
func (jd *Judge) outcomeError(o plugin.MatchOutcome) string {
	if jd.OnPluginError != nil {
		jd.OnPluginError(o.Err)
	}
	msg := jd.Redact.String(o.Err.Error())
	if o.ErrorKind == pluginrpc.ErrorKindInvalidArgument {
		msg = invalidArgumentText(msg)
	}
	return msg
}

// targetFailure explains a target that does not resolve in the response.
func targetFailure(a *plan.Assertion, err error) json.RawMessage {
	note := err.Error()
	if errors.Is(err, target.ErrNotFound) {
		note = "target not found: " + note
	}
	b, _ := json.Marshal(map[string]any{"expected": a.Spec.Matcher.Arg, "note": note})
	return b
}

// pluginLabel returns f.Label(), made once per judge.
func (jd *Judge) pluginLabel(f *plugin.Found) string {
	if l, ok := jd.labels.Load(f); ok {
		return l.(string)
	}
	l, _ := jd.labels.LoadOrStore(f, f.Label())
	return l.(string)
}

// trialOption is the MatchOptions.Raw of a test's trial k (1-based).
func trialOption(k int) json.RawMessage {
	return json.RawMessage(`{"trial":` + strconv.Itoa(k) + `}`)
}
