package report

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/mcptest/mcptest/core/score"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrMergeConflict is wrapped when reports cannot be merged.
var ErrMergeConflict = errors.New("reports cannot be merged")

// Merge joins the reports of the shards of one run into the report an
// unsharded run would have written: tests in suite and file order, servers
// and run errors de-duplicated, the summary, metric rollups and exit code
// recomputed.
//
// The reports must be the shards of one run: each carries shard metadata,
// all share one run id, one shard count and one list of suites, and each
// shard appears exactly once. A violation wraps ErrMergeConflict; missing
// shards wrap ErrMissingShards unless opts.AllowPartial is set, in which
// case the merged report's Partial names them.
func Merge(runs []*rpt.Run, opts MergeOptions) (*rpt.Run, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: nothing to merge", ErrMergeConflict)
	}
	for i, r := range runs {
		if r.SchemaVersion != rpt.SchemaVersion {
			return nil, fmt.Errorf("%w: %s has schema_version %q, want %q", ErrMergeConflict, opts.name(i), r.SchemaVersion, rpt.SchemaVersion)
		}
	}
	partial, err := checkShards(runs, opts)
	if err != nil {
		return nil, err
	}
	out := &rpt.Run{
		Partial:       partial,
		SchemaVersion: rpt.SchemaVersion,
		RunID:         runs[0].RunID,
		Tool:          runs[0].Tool,
		StartedAt:     runs[0].StartedAt,
		FinishedAt:    runs[0].FinishedAt,
		Suites:        []string{},
		Tests:         []rpt.Test{},
	}
	seenSuite := map[string]int{}
	seenServer := map[string]bool{}
	seenError := map[string]bool{}
	seenTest := map[string]string{}
	for i, r := range runs {
		if r.StartedAt.Before(out.StartedAt) {
			out.StartedAt = r.StartedAt
		}
		if r.FinishedAt.After(out.FinishedAt) {
			out.FinishedAt = r.FinishedAt
		}
		for _, s := range r.Suites {
			if _, ok := seenSuite[s]; !ok {
				seenSuite[s] = len(out.Suites)
				out.Suites = append(out.Suites, s)
			}
		}
		for _, m := range r.ModelCompatibility {
			if !slices.Contains(out.ModelCompatibility, m) {
				out.ModelCompatibility = append(out.ModelCompatibility, m)
			}
		}
		for _, s := range r.Servers {
			key := s.Name + "\x00" + s.Suite + "\x00" + s.TargetVersion + "\x00" + s.Transport + "\x00" + s.Error
			if !seenServer[key] {
				seenServer[key] = true
				out.Servers = append(out.Servers, s)
			}
		}
		for _, e := range r.Errors {
			key := e.Source + "\x00" + e.Name + "\x00" + e.Message
			if !seenError[key] {
				seenError[key] = true
				out.Errors = append(out.Errors, e)
			}
		}
		// Every shard ran its suites' beforeAll and afterAll: keep each.
		out.Hooks = append(out.Hooks, r.Hooks...)
		mergeBudget(out, r)
		for _, t := range r.Tests {
			if prev, ok := seenTest[t.ID]; ok {
				return nil, fmt.Errorf("%w: test %q appears in both %s and %s; were the shards taken from different runs?", ErrMergeConflict, t.ID, prev, opts.name(i))
			}
			seenTest[t.ID] = opts.name(i)
			out.Tests = append(out.Tests, t)
		}
	}
	sort.SliceStable(out.Tests, func(i, j int) bool {
		a, b := out.Tests[i], out.Tests[j]
		if sa, sb := seenSuite[a.File], seenSuite[b.File]; sa != sb {
			return sa < sb
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.ID < b.ID
	})
	rpt.SortServers(out.Servers)
	out.DurationMS = float64(out.FinishedAt.Sub(out.StartedAt).Microseconds()) / 1000
	out.Summary.DurationMS = out.DurationMS
	out.Summarize()
	out.MetricRollups = score.Rollups(out.Tests)
	out.ExitCode = score.ExitCode(out)
	return out, nil
}

// mergeBudget joins a shard's --max-cost budget into the merged run's
// costs (each shard had its own, so the run's is their sum, and it
// stopped calls when any shard's did; Summarize adds up the spending) and
// its count of evals not run (every shard of `mcptest run` counts all the
// selected evals, so the largest count is the run's).
func mergeBudget(out, r *rpt.Run) {
	out.EvalsNotRun = max(out.EvalsNotRun, r.EvalsNotRun)
	if r.Costs == nil || r.Costs.MaxUSD == nil {
		return
	}
	if out.Costs == nil {
		out.Costs = &rpt.Costs{}
	}
	total := *r.Costs.MaxUSD
	if out.Costs.MaxUSD != nil {
		total += *out.Costs.MaxUSD
	}
	out.Costs.MaxUSD = &total
	out.Costs.Stopped = out.Costs.Stopped || r.Costs.Stopped
}
