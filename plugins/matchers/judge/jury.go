package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/internal/agreement"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// juryMatcher serves llm-jury: every juror grades the value on its own,
// and the jury passes when the share of eligible jurors that passed
// reaches the quorum. A juror that could not grade (a reply unreadable
// after one repair, a failed call) abstains: it counts neither for nor
// against the quorum. A juror whose model has no key defers the whole
// item instead: convening the jury without it would change its verdict
// unseen.
type juryMatcher struct{}

// CheckArgument refuses a bad argument before the run starts.
func (juryMatcher) CheckArgument(_ string, raw json.RawMessage) error {
	_, err := parseJury(raw)
	return err
}

// vote is one juror's outcome.
type vote struct {
	g         grading
	threshold float64
	err       error
}

// Match convenes the jury.
func (juryMatcher) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	arg, err := parseJury(in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	def, _ := fraction(keyJury, "threshold", arg.Threshold, defaultThreshold)
	quorum, _ := fraction(keyJury, "quorum", arg.Quorum, defaultQuorum)
	candidate := candidateText(in.Actual)
	trial := trialOf(in.Options)
	votes := make([]vote, len(arg.Jurors))
	var wg sync.WaitGroup
	for i, j := range arg.Jurors {
		votes[i].threshold, _ = fraction(keyJury, "threshold", j.Threshold, def)
		wg.Add(1)
		go func() {
			defer wg.Done()
			votes[i].g, votes[i].err = ask(ctx, in.Host, sdk.Seat{Juror: i, Trial: trial}, j.Model, arg.Rubric, candidate)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return sdk.MatchResult{}, fmt.Errorf("%s: %w", keyJury, err)
	}
	var missing []string
	for _, v := range votes {
		if isNoKey(v.err) {
			missing = append(missing, strings.TrimPrefix(deferReason(keyJury, v.err), keyJury+": "))
		}
	}
	if len(missing) > 0 {
		return sdk.Defer(keyJury + ": " + strings.Join(missing, "; ")), nil
	}
	for i, v := range votes {
		if errors.Is(v.err, sdk.ErrCostCap) {
			// A juror the budget refused did not abstain: the jury would
			// reach a verdict it was never meant to, so the item errors.
			return sdk.MatchResult{}, fmt.Errorf("%s: juror %d (%s): %w", keyJury, i, modelLabel(arg.Jurors[i].Model), v.err)
		}
	}
	return verdict(arg, votes, def, quorum, candidate, in.Actual)
}

// verdict combines the jurors' votes; threshold is the jury-wide juror
// threshold, reported in the grade.
func verdict(arg juryArg, votes []vote, threshold, quorum float64, candidate string, actual json.RawMessage) (sdk.MatchResult, error) {
	jury := &report.EvalJury{Kind: "jury", Size: len(votes), Consensus: quorum}
	jurors := make([]report.EvalJuror, len(votes))
	var scores []float64
	passed, sum := 0, 0.0
	calls, cachedCalls, costKnown, cost := 0, 0, true, 0.0
	var reasons []string
	for i, v := range votes {
		j := report.EvalJuror{Index: i, Model: arg.Jurors[i].Model}
		calls += v.g.calls
		cachedCalls += v.g.cached
		j.Cached = v.g.calls > 0 && v.g.cached == v.g.calls
		if v.g.cost == nil {
			costKnown = costKnown && v.g.calls == 0
		} else {
			cost += *v.g.cost
			j.CostUSD = v.g.cost
		}
		if v.err != nil {
			j.Abstained, j.Error = true, v.err.Error()
			jury.Abstained++
			reasons = append(reasons, fmt.Sprintf("juror %d (%s) abstained: %v", i, j.Model, v.err))
			jurors[i] = j
			continue
		}
		s := v.g.reply.Score
		j.Score, j.Reason, j.Passed = &s, v.g.reply.Reason, v.g.passes(v.threshold)
		scores = append(scores, s)
		sum += s
		if j.Passed {
			passed++
		}
		verb := "failed"
		if j.Passed {
			verb = "passed"
		}
		reasons = append(reasons, fmt.Sprintf("juror %d (%s) %s with %s: %s", i, j.Model, verb, fmtScore(s), v.g.reply.Reason))
		jurors[i] = j
	}
	eligible := len(scores)
	if eligible == 0 {
		return sdk.MatchResult{}, fmt.Errorf("%s: every juror abstained, so there is no verdict: %s", keyJury, strings.Join(reasons, "; "))
	}
	jury.PassFraction = float64(passed) / float64(eligible)
	if a, err := agreement.Alpha([][]float64{scores}, agreement.Interval); err == nil {
		jury.Alpha = &a
	} else if !errors.Is(err, agreement.ErrUndefined) {
		return sdk.MatchResult{}, fmt.Errorf("%s: agreement: %w", keyJury, err)
	}
	mean := sum / float64(eligible)
	pass := jury.PassFraction >= quorum-1e-9
	ev := &report.Eval{
		Form: "text", Candidate: "value", Response: bounded(candidate, maxEvalResponse),
		Score: mean, Threshold: threshold, Passed: pass, Jurors: jurors, Jury: jury, Calls: calls,
		CachedCalls: cachedCalls, Cached: calls > 0 && cachedCalls == calls,
		Reason: fmt.Sprintf("%d of %d eligible jurors passed (quorum %s)", passed, eligible, fmtScore(quorum)),
	}
	if costKnown && calls > 0 {
		ev.CostUSD = &cost
	}
	res := sdk.MatchResult{Pass: pass, Score: &mean, Eval: ev}
	if !pass {
		extra := map[string]any{"pass_fraction": jury.PassFraction, "quorum": quorum, "abstained": jury.Abstained, "jurors": jurors}
		note := fmt.Sprintf("%d of %d eligible jurors passed, pass fraction %s below the quorum %s", passed, eligible, fmtScore(jury.PassFraction), fmtScore(quorum))
		if jury.Alpha != nil {
			extra["alpha"] = *jury.Alpha
			note += fmt.Sprintf(" (Krippendorff's alpha %s)", fmtScore(*jury.Alpha))
		}
		res.Failure = &sdk.Failure{
			Expected: sdk.JSON(fmt.Sprintf("a pass fraction of at least %s", fmtScore(quorum))),
			Actual:   actual,
			Note:     note + ": " + strings.Join(reasons, "; "),
			Extra:    extra,
		}
	}
	return res, nil
}
