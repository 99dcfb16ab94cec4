package report

import "math"

// costSummary adds up what the run's model calls cost (Run.Costs): each
// test's cost (testCost) in total and per suite file, and the judge and
// scorer calls across the run. The budget (MaxUSD) and Stopped of prev
// are kept: the run, not the tests, knows them. nil when no test cost
// anything, no call was made and no budget was set.
func costSummary(tests []Test, prev *Costs) *Costs {
	c := &Costs{}
	if prev != nil {
		c.MaxUSD, c.Stopped = prev.MaxUSD, prev.Stopped
	}
	priced := false
	suites := map[string]int{}
	for i := range tests {
		t := &tests[i]
		calls, cached := testCalls(t)
		c.Calls += calls
		c.CachedCalls += cached
		usd, ok := testCost(t)
		if !ok {
			continue
		}
		priced = true
		c.TotalUSD += usd
		j, seen := suites[t.File]
		if !seen {
			j = len(c.Suites)
			suites[t.File] = j
			c.Suites = append(c.Suites, SuiteCost{Suite: t.File})
		}
		c.Suites[j].USD += usd
	}
	if !priced && c.Calls == 0 && c.MaxUSD == nil {
		return nil
	}
	c.TotalUSD = roundUSD(c.TotalUSD)
	for i := range c.Suites {
		c.Suites[i].USD = roundUSD(c.Suites[i].USD)
	}
	return c
}

// roundUSD rounds a sum of float costs to a nano-dollar, far below any
// price, so the report reads 0.0093 rather than the 0.009299999999999998
// that adding binary fractions leaves.
func roundUSD(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// testCost is what one test's model calls cost, and whether any of them
// had a price: an eval's grade (which includes its live agent run), or an
// agent test's run plus the grades of its judged metrics.
func testCost(t *Test) (float64, bool) {
	if t.Eval != nil {
		if t.Eval.CostUSD == nil {
			return 0, false
		}
		return *t.Eval.CostUSD, true
	}
	var usd float64
	ok := false
	if t.Agent != nil && t.Agent.CostUSDCents != nil {
		usd, ok = *t.Agent.CostUSDCents/100, true
	}
	eachEval(t.Assertions, func(e *Eval) {
		if e.CostUSD != nil {
			usd += *e.CostUSD
			ok = true
		}
	})
	return usd, ok
}

// testCalls counts a test's judge and scorer calls and how many of them
// the verdict cache answered.
func testCalls(t *Test) (calls, cached int) {
	if t.Eval != nil {
		return t.Eval.Calls, t.Eval.CachedCalls
	}
	eachEval(t.Assertions, func(e *Eval) {
		calls += e.Calls
		cached += e.CachedCalls
	})
	return calls, cached
}

// eachEval calls f on the grade of every assertion that has one, the
// members of an assert-set included (a judge matcher in a set spends
// like one outside it).
func eachEval(as []Assertion, f func(*Eval)) {
	for i := range as {
		if as[i].Eval != nil {
			f(as[i].Eval)
		}
		eachEval(as[i].Assertions, f)
	}
}
