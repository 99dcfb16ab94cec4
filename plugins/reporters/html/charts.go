package main

import (
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/internal/svgchart"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// The overview charts of the page, for reports people look at rather
// than read: a latency histogram and the slowest tests, the run broken
// down by suite and by server, and the score distribution of scored tests
// against their thresholds. Each chart is inline SVG drawn in Go
// (internal/svgchart).

// slowestShown is how many of the slowest tests are listed.
const slowestShown = 10

// chartsView is the overview section.
type chartsView struct {
	Histogram     template.HTML
	P50, P95, Max string
	Timed         int
	Slowest       []slowView
	Suites        []breakdownView
	Servers       []breakdownView
	Scores        template.HTML
	Scored        int
	Thresholds    string
}

// slowView is one of the slowest tests.
type slowView struct {
	Index          int
	Name, Duration string
	Class, Status  string
	Bar            template.HTML
}

// breakdownView is one suite's or server's row.
type breakdownView struct {
	Name, Detail                             string
	Passed, Failed, Warned, Errored, Skipped int
	Total                                    int
	Duration, P95                            string
	Bar                                      template.HTML
}

// latencyBuckets are the upper bounds (ms) of the histogram's bars, in a
// 1-2-5 progression so fast and slow tests both show.
var latencyBuckets = []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000}

// newCharts builds the overview of run; nil when no test ran.
func newCharts(run *report.Run) *chartsView {
	var timed []int // indexes of tests that ran, with a duration
	for i := range run.Tests {
		t := &run.Tests[i]
		if t.Status != report.StatusSkipped && t.DurationMS > 0 {
			timed = append(timed, i)
		}
	}
	if len(run.Tests) == 0 {
		return nil
	}
	c := &chartsView{Timed: len(timed)}
	if len(timed) > 0 {
		c.latency(run, timed)
	}
	c.Suites = breakdown(run, func(t *report.Test) (string, string) { return t.File, "" })
	c.Servers = breakdown(run, func(t *report.Test) (string, string) {
		if t.Server == "" {
			return "", ""
		}
		return t.Server, t.File
	})
	c.scores(run)
	return c
}

// latency fills the histogram and the slowest tests.
func (c *chartsView) latency(run *report.Run, timed []int) {
	ds := make([]float64, 0, len(timed))
	counts := make([]int, len(latencyBuckets)+1)
	for _, i := range timed {
		d := run.Tests[i].DurationMS
		ds = append(ds, d)
		counts[sort.SearchFloat64s(latencyBuckets, d)]++
	}
	sort.Float64s(ds)
	c.P50, c.P95, c.Max = formatMS(percentile(ds, 50)), formatMS(percentile(ds, 95)), formatMS(ds[len(ds)-1])
	// Bars from the first bucket used to the last, so the chart is not
	// mostly empty.
	first, last := len(counts), -1
	for i, n := range counts {
		if n > 0 {
			first, last = min(first, i), i
		}
	}
	var bars []svgchart.Bar
	for i := first; i <= last; i++ {
		label := "> " + shortMS(latencyBuckets[len(latencyBuckets)-1])
		if i < len(latencyBuckets) {
			label = "≤ " + shortMS(latencyBuckets[i])
		}
		bars = append(bars, svgchart.Bar{Label: label, Value: float64(counts[i]), Class: "st-passed",
			Title: fmt.Sprintf("%s: %d test(s)", label, counts[i])})
	}
	c.Histogram = template.HTML(svgchart.Bars("Test durations", bars, ""))

	slow := append([]int(nil), timed...)
	sort.SliceStable(slow, func(a, b int) bool { return run.Tests[slow[a]].DurationMS > run.Tests[slow[b]].DurationMS })
	if len(slow) > slowestShown {
		slow = slow[:slowestShown]
	}
	top := run.Tests[slow[0]].DurationMS
	for _, i := range slow {
		t := &run.Tests[i]
		name := textsafe.Clean(t.Name)
		c.Slowest = append(c.Slowest, slowView{
			Index: i + 1, Name: name, Duration: formatMS(t.DurationMS),
			Class: statusClass(t.Status), Status: textsafe.Clean(string(t.Status)),
			Bar: template.HTML(svgchart.Stack(name+": "+formatMS(t.DurationMS), []svgchart.Segment{
				{Value: t.DurationMS, Class: statusClass(t.Status), Title: formatMS(t.DurationMS)},
				{Value: top - t.DurationMS, Class: "rest", Title: ""},
			}, 200)),
		})
	}
}

// breakdown groups the tests by key (suite file, or server and suite).
func breakdown(run *report.Run, key func(*report.Test) (name, detail string)) []breakdownView {
	type group struct {
		view breakdownView
		ds   []float64
		ms   float64
	}
	var order []string
	groups := map[string]*group{}
	for i := range run.Tests {
		t := &run.Tests[i]
		name, detail := key(t)
		if name == "" {
			continue
		}
		k := name + "\x00" + detail
		g := groups[k]
		if g == nil {
			g = &group{view: breakdownView{Name: textsafe.Clean(name), Detail: textsafe.Clean(detail)}}
			groups[k] = g
			order = append(order, k)
		}
		g.view.Total++
		switch t.Status {
		case report.StatusPassed:
			g.view.Passed++
		case report.StatusFailed:
			g.view.Failed++
		case report.StatusWarned:
			g.view.Warned++
		case report.StatusErrored:
			g.view.Errored++
		case report.StatusSkipped:
			g.view.Skipped++
		}
		if t.Status != report.StatusSkipped && t.DurationMS > 0 {
			g.ds = append(g.ds, t.DurationMS)
			g.ms += t.DurationMS
		}
	}
	out := make([]breakdownView, 0, len(order))
	for _, k := range order {
		g := groups[k]
		v := g.view
		v.Duration = formatMS(g.ms)
		if len(g.ds) > 0 {
			sort.Float64s(g.ds)
			v.P95 = formatMS(percentile(g.ds, 95))
		}
		v.Bar = template.HTML(svgchart.Stack(v.Name+": statuses", []svgchart.Segment{
			{Value: float64(v.Passed), Class: "st-passed", Title: fmt.Sprintf("%d passed", v.Passed)},
			{Value: float64(v.Warned), Class: "st-warned", Title: fmt.Sprintf("%d warned", v.Warned)},
			{Value: float64(v.Failed), Class: "st-failed", Title: fmt.Sprintf("%d failed", v.Failed)},
			{Value: float64(v.Errored), Class: "st-errored", Title: fmt.Sprintf("%d errored", v.Errored)},
			{Value: float64(v.Skipped), Class: "st-skipped", Title: fmt.Sprintf("%d skipped", v.Skipped)},
		}, 200))
		out = append(out, v)
	}
	return out
}

// scores draws the score distribution of scored tests and evals: ten bars over
// 0..1, each coloured by whether its tests passed, with a marker at each
// threshold the tests set.
func (c *chartsView) scores(run *report.Run) {
	var counts, fails [10]int
	thresholds := map[float64]int{}
	for i := range run.Tests {
		t := &run.Tests[i]
		score, threshold := t.Score, t.Threshold
		if score == nil && t.Eval != nil {
			// An eval's score is its grade's (on 0..1 whatever its
			// display scale).
			score, threshold = &t.Eval.Score, &t.Eval.Threshold
		}
		if score == nil || math.IsNaN(*score) {
			continue
		}
		c.Scored++
		b := min(int(math.Max(0, *score)*10), 9)
		counts[b]++
		if t.Status == report.StatusFailed || t.Status == report.StatusErrored {
			fails[b]++
		}
		if threshold != nil {
			thresholds[*threshold]++
		}
	}
	if c.Scored == 0 {
		return
	}
	bars := make([]svgchart.Bar, 10)
	for i := range bars {
		class := "st-passed"
		switch {
		case counts[i] > 0 && fails[i] == counts[i]:
			class = "st-failed"
		case fails[i] > 0:
			class = "st-warned"
		}
		lo, hi := float64(i)/10, float64(i+1)/10
		bars[i] = svgchart.Bar{Label: fmt.Sprintf("%.1f", lo), Value: float64(counts[i]), Class: class,
			Title: fmt.Sprintf("score %.1f–%.1f: %d test(s), %d not passing", lo, hi, counts[i], fails[i])}
	}
	var markers []svgchart.Marker
	var ts []string
	for th := range thresholds {
		markers = append(markers, svgchart.Marker{At: th, Label: "threshold " + formatFloat(th)})
	}
	sort.Slice(markers, func(i, j int) bool { return markers[i].At < markers[j].At })
	for _, m := range markers {
		ts = append(ts, strings.TrimPrefix(m.Label, "threshold "))
	}
	c.Thresholds = strings.Join(ts, ", ")
	c.Scores = template.HTML(svgchart.WithMarkers(svgchart.Bars("Score distribution", bars, ""), markers))
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

// shortMS labels a bucket bound: 500 ms, 2 s.
func shortMS(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%g s", ms/1000)
	}
	return fmt.Sprintf("%g ms", ms)
}
