package report

import (
	"errors"
	"slices"
	"strings"
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// shardRun is the report of shard index of total in run id, with one test.
func shardRun(id string, index, total int, suites ...string) *rpt.Run {
	if len(suites) == 0 {
		suites = []string{"s.yml"}
	}
	return &rpt.Run{SchemaVersion: rpt.SchemaVersion, RunID: id, Suites: suites,
		Shard: &rpt.Shard{Index: index, Total: total},
		Tests: []rpt.Test{{ID: id + string(rune('a'+index)), File: "s.yml", Status: rpt.StatusPassed}}}
}

func TestMergeChecksShards(t *testing.T) {
	names := []string{"a.json", "b.json", "c.json"}
	for _, tc := range []struct {
		name string
		runs []*rpt.Run
		is   error
		want []string // in the message
	}{
		{"missing shard", []*rpt.Run{shardRun("r", 1, 3), shardRun("r", 2, 3)}, ErrMissingShards,
			[]string{`shard 3 of 3 is missing`, `run "r"`, "--allow-partial"}},
		{"two missing", []*rpt.Run{shardRun("r", 2, 3)}, ErrMissingShards,
			[]string{`shards 1, 3 of 3 are missing`}},
		{"two run ids", []*rpt.Run{shardRun("r", 1, 2), shardRun("other", 2, 2)}, ErrMergeConflict,
			[]string{`2 different run id values: "r" (a.json) and "other" (b.json)`, "--run-id"}},
		{"two counts", []*rpt.Run{shardRun("r", 1, 2), shardRun("r", 2, 3), shardRun("r", 2, 2)}, ErrMergeConflict,
			[]string{`2 different shard count values: 2 (a.json, c.json) and 3 (b.json)`}},
		{"same shard twice", []*rpt.Run{shardRun("r", 1, 2), shardRun("r", 1, 2)}, ErrMergeConflict,
			[]string{`shard 1/2 is given twice: a.json and b.json`}},
		{"different suites", []*rpt.Run{shardRun("r", 1, 2, "x.yml"), shardRun("r", 2, 2, "y.yml")}, ErrMergeConflict,
			[]string{`suites values: [x.yml] (a.json) and [y.yml] (b.json)`}},
		{"not a shard", []*rpt.Run{shardRun("r", 1, 2), {SchemaVersion: rpt.SchemaVersion, RunID: "r"}}, ErrMergeConflict,
			[]string{`b.json has no shard metadata`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.runs, MergeOptions{Names: names})
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestMergeAllowPartial(t *testing.T) {
	runs := []*rpt.Run{shardRun("r", 3, 4), shardRun("r", 1, 4)}
	out, err := Merge(runs, MergeOptions{AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Partial == nil || !slices.Equal(out.Partial.MissingShards, []int{2, 4}) || out.Partial.ShardTotal != 4 {
		t.Fatalf("Partial = %+v", out.Partial)
	}
	if out.RunID != "r" || out.Shard != nil || len(out.Tests) != 2 {
		t.Errorf("merged = run id %q, shard %+v, %d tests", out.RunID, out.Shard, len(out.Tests))
	}
	// AllowPartial forgives missing shards only: reports of two runs are
	// still refused.
	if _, err := Merge([]*rpt.Run{shardRun("r", 1, 4), shardRun("s", 2, 4)}, MergeOptions{AllowPartial: true}); !errors.Is(err, ErrMergeConflict) {
		t.Errorf("two runs with AllowPartial: %v", err)
	}
	// A complete set is not partial.
	out, err = Merge([]*rpt.Run{shardRun("r", 2, 2), shardRun("r", 1, 2)}, MergeOptions{AllowPartial: true})
	if err != nil || out.Partial != nil {
		t.Errorf("complete merge: partial %+v, err %v", out.Partial, err)
	}
}
