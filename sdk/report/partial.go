package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Partial names the shards a merged report lacks.
type Partial struct {
	// MissingShards are the 1-based indexes of the shards not merged, in
	// order; ShardTotal is the number of shards of the run.
	MissingShards []int `json:"missing_shards"`
	ShardTotal    int   `json:"shard_total"`
}

// Text describes the gap for people: "partial: shard 3 of 4 missing",
// "partial: shards 2, 3 of 4 missing". It is empty for a nil Partial.
func (p *Partial) Text() string {
	if p == nil {
		return ""
	}
	nums := make([]string, len(p.MissingShards))
	for i, m := range p.MissingShards {
		nums[i] = strconv.Itoa(m)
	}
	word := "shard"
	if len(nums) != 1 {
		word = "shards"
	}
	return fmt.Sprintf("partial: %s %s of %d missing", word, strings.Join(nums, ", "), p.ShardTotal)
}
