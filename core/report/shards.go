package report

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrMissingShards is wrapped when the reports given to Merge lack some
// shards of their run and MergeOptions.AllowPartial is not set.
var ErrMissingShards = errors.New("shards are missing")

// MergeOptions adjust Merge.
type MergeOptions struct {
	// Names name the reports in messages, in the order of the runs (the
	// files they were read from); missing names read "report N".
	Names []string
	// AllowPartial merges reports that lack some shards of their run,
	// marking the result Partial, instead of refusing them.
	AllowPartial bool
}

// name returns how messages refer to report i.
func (o MergeOptions) name(i int) string {
	if i < len(o.Names) && o.Names[i] != "" {
		return o.Names[i]
	}
	return "report " + strconv.Itoa(i+1)
}

// checkShards checks that runs are the shards of one run, using the shard
// metadata every `mcptest run --shard` report carries: every report has
// it, they share one run id, one shard count and one list of suites, and
// each shard index appears exactly once. It returns the indexes of the
// missing shards (with their total) when that is allowed, and an error
// naming the first problem otherwise.
func checkShards(runs []*rpt.Run, opts MergeOptions) (*rpt.Partial, error) {
	for i, r := range runs {
		if r.Shard == nil {
			return nil, fmt.Errorf("%w: %s has no shard metadata: only reports of `mcptest run --shard i/n` can be merged", ErrMergeConflict, opts.name(i))
		}
	}
	if err := agree(runs, opts, "run id", "give every shard the same --run-id", func(r *rpt.Run) string { return strconv.Quote(r.RunID) }); err != nil {
		return nil, err
	}
	if err := agree(runs, opts, "shard count", "merge the shards of one run", func(r *rpt.Run) string { return strconv.Itoa(r.Shard.Total) }); err != nil {
		return nil, err
	}
	if err := agree(runs, opts, "suites", "every shard must run the same suites", func(r *rpt.Run) string { return "[" + strings.Join(r.Suites, ", ") + "]" }); err != nil {
		return nil, err
	}
	total := runs[0].Shard.Total
	seen := make(map[int]int, len(runs))
	for i, r := range runs {
		idx := r.Shard.Index
		if idx < 1 || idx > total {
			return nil, fmt.Errorf("%w: %s is shard %d of %d, which does not exist", ErrMergeConflict, opts.name(i), idx, total)
		}
		if prev, dup := seen[idx]; dup {
			return nil, fmt.Errorf("%w: shard %d/%d is given twice: %s and %s", ErrMergeConflict, idx, total, opts.name(prev), opts.name(i))
		}
		seen[idx] = i
	}
	var missing []int
	for idx := 1; idx <= total; idx++ {
		if _, ok := seen[idx]; !ok {
			missing = append(missing, idx)
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	if !opts.AllowPartial {
		return nil, fmt.Errorf("%w: %s of run %q; pass --allow-partial to merge the %d present anyway",
			ErrMissingShards, missingText(missing, total), runs[0].RunID, len(runs))
	}
	return &rpt.Partial{MissingShards: missing, ShardTotal: total}, nil
}

// agree checks that key gives one value for every run; otherwise the error
// lists each value with the reports that have it.
func agree(runs []*rpt.Run, opts MergeOptions, what, hint string, key func(*rpt.Run) string) error {
	var values []string
	holders := map[string][]string{}
	for i, r := range runs {
		v := key(r)
		if _, ok := holders[v]; !ok {
			values = append(values, v)
		}
		holders[v] = append(holders[v], opts.name(i))
	}
	if len(values) == 1 {
		return nil
	}
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("%s (%s)", v, strings.Join(holders[v], ", "))
	}
	return fmt.Errorf("%w: the reports have %d different %s values: %s; %s", ErrMergeConflict, len(values), what, strings.Join(parts, " and "), hint)
}

// missingText says which shards are missing: "shard 3 of 4 is missing",
// "shards 2, 3 of 4 are missing".
func missingText(missing []int, total int) string {
	nums := make([]string, len(missing))
	for i, m := range missing {
		nums[i] = strconv.Itoa(m)
	}
	if len(missing) == 1 {
		return fmt.Sprintf("shard %s of %d is missing", nums[0], total)
	}
	return fmt.Sprintf("shards %s of %d are missing", strings.Join(nums, ", "), total)
}
