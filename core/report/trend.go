package report

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Run history (`mcptest report trend`): what a series of saved runs says
// over time. Each run gives a point (pass rate, wall time, p95 test
// latency); tests that both passed and failed within the recent runs are
// named as flaky.

// DefaultFlakyWindow is how many of the latest runs are searched for
// flaky tests.
const DefaultFlakyWindow = 10

// ErrNoRuns is returned when a trend has no run to show.
var ErrNoRuns = errors.New("no run reports")

// TrendPoint is one run of a trend.
type TrendPoint struct {
	RunID     string
	StartedAt time.Time
	// File is the report the run was read from.
	File string
	// Tests counts every test; Ran those not skipped; Passed those that
	// passed or passed with warnings.
	Tests, Ran, Passed, Failed, Errored, Skipped int
	// PassRate is Passed/Ran in percent; NaN when nothing ran.
	PassRate float64
	// DurationMS is the run's wall time; P95MS the 95th percentile of the
	// durations of the tests that ran.
	DurationMS float64
	P95MS      float64 `json:"p95_ms"`
}

// FlakyTest is a test that passed and failed in the recent runs.
type FlakyTest struct {
	// ID is the test's id; ProtocolVersion its revision when the suite
	// lists target_versions (part of what makes a run the same).
	ID, Name, ProtocolVersion string
	Passed, Failed            int
	// Flips counts the changes between passing and failing, in run order.
	Flips int
	// Last is the test's status in the latest run where it ran.
	Last rpt.Status
}

// Trend is a series of runs, oldest first, and the flaky tests among the
// latest Window of them.
type Trend struct {
	Points []TrendPoint
	Window int
	Flaky  []FlakyTest
}

// ReadHistory reads every saved run report (*.json) of dir, in name
// order. Files that are not run reports are errors, named.
func ReadHistory(dir string) ([]*rpt.Run, []string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--history %s: %w", dir, err)
	}
	var runs []*rpt.Run
	var files []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		r, err := ReadRun(path)
		if err != nil {
			return nil, nil, err
		}
		runs, files = append(runs, r), append(files, path)
	}
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("%w in %s (save some with mcptest run --history %s)", ErrNoRuns, dir, dir)
	}
	return runs, files, nil
}

// NewTrend computes the trend of runs (files names each run's report);
// runs are ordered by start time. window bounds the runs searched for
// flaky tests; 0 means DefaultFlakyWindow.
func NewTrend(runs []*rpt.Run, files []string, window int) (*Trend, error) {
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	if window <= 0 {
		window = DefaultFlakyWindow
	}
	idx := make([]int, len(runs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return runs[idx[a]].StartedAt.Before(runs[idx[b]].StartedAt) })
	tr := &Trend{Window: window}
	for _, i := range idx {
		p := point(runs[i])
		if i < len(files) {
			p.File = files[i]
		}
		tr.Points = append(tr.Points, p)
	}
	recent := idx[max(0, len(idx)-window):]
	tr.Flaky = flaky(runs, recent)
	return tr, nil
}

// point summarises one run.
func point(r *rpt.Run) TrendPoint {
	p := TrendPoint{RunID: r.RunID, StartedAt: r.StartedAt, DurationMS: r.DurationMS, Tests: len(r.Tests)}
	var ds []float64
	for i := range r.Tests {
		t := &r.Tests[i]
		switch t.Status {
		case rpt.StatusSkipped:
			p.Skipped++
			continue
		case rpt.StatusPassed, rpt.StatusWarned:
			p.Passed++
		case rpt.StatusFailed:
			p.Failed++
		case rpt.StatusErrored:
			p.Errored++
		}
		p.Ran++
		ds = append(ds, t.DurationMS)
	}
	p.PassRate = math.NaN()
	if p.Ran > 0 {
		p.PassRate = 100 * float64(p.Passed) / float64(p.Ran)
	}
	if len(ds) > 0 {
		sort.Float64s(ds)
		p.P95MS = ds[int(math.Ceil(0.95*float64(len(ds))))-1]
	}
	return p
}

// flaky finds the tests that passed in one of the runs and failed or
// errored in another. A test is the same when its id (suite file, block,
// name, data row) and protocol revision are.
func flaky(runs []*rpt.Run, order []int) []FlakyTest {
	type history struct {
		ft       FlakyTest
		statuses []bool // pass or not, in run order
	}
	byKey := map[string]*history{}
	var keys []string
	for _, i := range order {
		for j := range runs[i].Tests {
			t := &runs[i].Tests[j]
			pass := t.Status == rpt.StatusPassed || t.Status == rpt.StatusWarned
			if !pass && t.Status != rpt.StatusFailed && t.Status != rpt.StatusErrored {
				continue
			}
			k := t.ID + "\x00" + t.ProtocolVersion
			h := byKey[k]
			if h == nil {
				h = &history{ft: FlakyTest{ID: t.ID, ProtocolVersion: t.ProtocolVersion}}
				byKey[k] = h
				keys = append(keys, k)
			}
			h.ft.Name, h.ft.Last = t.Name, t.Status
			if pass {
				h.ft.Passed++
			} else {
				h.ft.Failed++
			}
			if n := len(h.statuses); n > 0 && h.statuses[n-1] != pass {
				h.ft.Flips++
			}
			h.statuses = append(h.statuses, pass)
		}
	}
	var out []FlakyTest
	for _, k := range keys {
		if h := byKey[k]; h.ft.Passed > 0 && h.ft.Failed > 0 {
			out = append(out, h.ft)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Flips > out[b].Flips })
	return out
}

// ErrHistoryDir is wrapped when a --history folder cannot be used.
var ErrHistoryDir = errors.New("history folder")

// HistoryFile names the report a run saves into a history folder: its
// start time first, so the folder lists in run order.
func HistoryFile(dir string, started time.Time, runID string) (string, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("%w %s: %w", ErrHistoryDir, dir, err)
		}
	case err != nil:
		return "", fmt.Errorf("%w %s: %w", ErrHistoryDir, dir, err)
	case !info.IsDir():
		return "", fmt.Errorf("%w %s: not a directory", ErrHistoryDir, dir)
	}
	name := started.UTC().Format("20060102T150405.000Z")
	if runID != "" {
		name += "-" + strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == 0 || r == ':' {
				return '_'
			}
			return r
		}, runID)
	}
	return filepath.Join(dir, name+".json"), nil
}
