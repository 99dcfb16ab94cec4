package run_test

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// scoring holds the suite-composition spec's examples, adapted to the demo
// server's echo tool: the message decides which assertions pass.
const scoring = `
servers:
  demo:
    command: ["DEMO"]
defaultTest:
  expect:
    - {target: "result.content[0].type", matcher: {eq: "text"}, name: text_block}
tools:
  - name: weights clear the threshold
    server: demo
    tool: echo
    args: {message: "rust"}
    threshold: 0.7
    expect:
      - {target: "result.content[0].text", matcher: {has: "rust"}, weight: 2.0}
      - {target: "result.content[0].text", matcher: {has: "go"}, weight: 1.0}
  - name: an assert-set at 2 of 3
    server: demo
    tool: echo
    args: {message: "rollback and canary"}
    expect:
      - assert-set:
          name: keyword-coverage
          threshold: 0.6
          assertions:
            - {target: "result.content[0].text", matcher: {has: "rollback"}, name: rollback}
            - {target: "result.content[0].text", matcher: {has: "canary"}}
            - {target: "result.content[0].text", matcher: {has: "bluegreen"}}
  - name: a failing assert-set fails a legacy test
    server: demo
    tool: echo
    args: {message: "rollback"}
    expect:
      - assert-set:
          threshold: 0.6
          assertions:
            - {target: "result.content[0].text", matcher: {has: "rollback"}}
            - {target: "result.content[0].text", matcher: {has: "canary"}}
            - {target: "result.content[0].text", matcher: {has: "bluegreen"}}
  - name: the derived metric gates
    server: demo
    tool: echo
    args: {message: "see the sources"}
    threshold: 0.5
    expect:
      - {target: "result.content[0].text", matcher: {has: "sources"}, name: cites_sources}
      - {target: "result.content[0].text", matcher: {re: "^[A-Z]"}, name: well_formed}
    derivedMetrics:
      - name: quality
        threshold: 0.7
        value:
          weighted_average:
            - {ref: cites_sources, weight: 2.0}
            - {ref: well_formed, weight: 1.0}
      - name: chained
        value:
          weighted_sum:
            - {ref: quality, weight: 3.0}
            - {ref: typo_name, weight: 1.0}
  - name: below the threshold
    server: demo
    tool: echo
    args: {message: "x"}
    threshold: 0.75
    expect:
      - {target: "result.content[0].text", matcher: {has: "x"}}
      - {target: "result.content[0].text", matcher: {has: "y"}}
      - {target: "result.content[0].text", matcher: {has: "z"}}
  - name: legacy all must pass
    server: demo
    tool: echo
    args: {message: "legacy"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "legacy"}, weight: 5}
    derivedMetrics:
      - name: quality
        value: {weighted_average: [{ref: text_block}]}
`

func TestScoring(t *testing.T) {
	pl, h := setupScoring(t, scoring, "")
	res, tests := runScoring(t, pl, h)

	w := tests["weights clear the threshold"]
	// Own 2.0 passes, own 1.0 fails, the inherited baseline 1.0 passes: 3/4.
	if w.Status != report.StatusPassed || w.Score == nil || *w.Score != 0.75 || w.Threshold == nil || *w.Threshold != 0.7 {
		t.Errorf("weights: %s score %v threshold %v", w.Status, w.Score, w.Threshold)
	}
	if len(w.Assertions) != 3 || w.Assertions[2].Name != "text_block" || w.Assertions[0].Weight == nil || *w.Assertions[0].Weight != 2 {
		t.Errorf("weights: assertions %+v", w.Assertions)
	}

	s := tests["an assert-set at 2 of 3"]
	set := s.Assertions[0]
	if s.Status != report.StatusPassed || s.Score != nil || set.Matcher != "assert-set" || set.Name != "keyword-coverage" ||
		set.Status != report.StatusPassed || set.Score == nil || math.Abs(*set.Score-2.0/3) > 1e-9 ||
		*set.Threshold != 0.6 || *set.Weight != 1 || len(set.Assertions) != 3 || set.Assertions[2].Status != report.StatusFailed {
		t.Errorf("assert-set: %s %+v", s.Status, set)
	}

	f := tests["a failing assert-set fails a legacy test"]
	if f.Status != report.StatusFailed || f.Assertions[0].Status != report.StatusFailed ||
		!strings.Contains(string(f.Assertions[0].Failure), "1 of 3 assertions passed: weighted score 0.333, below the set threshold 0.6") {
		t.Errorf("failing set: %s %s", f.Status, f.Assertions[0].Failure)
	}

	d := tests["the derived metric gates"]
	if d.Status != report.StatusFailed || d.Score == nil || *d.Score != 2.0/3 {
		t.Errorf("derived: %s score %v", d.Status, d.Score)
	}
	if len(d.DerivedMetrics) != 2 {
		t.Fatalf("derived metrics = %+v", d.DerivedMetrics)
	}
	q, c := d.DerivedMetrics[0], d.DerivedMetrics[1]
	if q.Name != "quality" || math.Abs(q.Value-2.0/3) > 1e-9 || q.Passed == nil || *q.Passed || *q.Threshold != 0.7 {
		t.Errorf("quality = %+v", q)
	}
	if c.Name != "chained" || math.Abs(c.Value-2) > 1e-9 || c.Passed != nil || len(c.Unresolved) != 1 || c.Unresolved[0] != "typo_name" {
		t.Errorf("chained = %+v", c)
	}
	if d.Error == nil || d.Error.Kind != "derived_metric" || !strings.Contains(d.Error.Message, `"quality" is 0.667, below its threshold 0.7`) {
		t.Errorf("derived error = %+v", d.Error)
	}

	b := tests["below the threshold"]
	if b.Status != report.StatusFailed || b.Error == nil || b.Error.Kind != "threshold" || b.Error.Message != "score 0.5 is below the threshold 0.75" {
		t.Errorf("below: %s %+v", b.Status, b.Error)
	}

	l := tests["legacy all must pass"]
	if l.Status != report.StatusPassed || l.Score != nil || l.Threshold != nil || l.Assertions[0].Weight != nil {
		t.Errorf("legacy: %+v", l)
	}
	if len(res.MetricRollups) != 2 || res.MetricRollups[0].Name != "quality" || res.MetricRollups[0].Count != 2 ||
		math.Abs(res.MetricRollups[0].Mean-(2.0/3+1)/2) > 1e-9 || res.MetricRollups[1].Name != "chained" {
		t.Errorf("rollups = %+v", res.MetricRollups)
	}
}

// TestLegacyReportShape checks that a suite using none of the score model
// reports none of its fields.
func TestLegacyReportShape(t *testing.T) {
	pl, h := setupScoring(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: plain
    server: demo
    tool: echo
    args: {message: "a"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "a"}}
      - {target: "result.content[0].text", matcher: {eq: "b"}}
`, "")
	res, _ := runScoring(t, pl, h)
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"score"`, `"threshold"`, `"weight"`, `"derived_metrics"`, `"metric_rollups"`} {
		if strings.Contains(string(raw), field) {
			t.Errorf("report has %s: %s", field, raw)
		}
	}
	var keys []string
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(mustMarshal(t, res.Tests[0].Assertions[0]), &obj)
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, ","); got != "index,matcher,plugin,status,target" {
		t.Errorf("assertion fields = %s", got)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
