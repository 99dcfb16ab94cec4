package plan

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/core/plugin"
)

// ErrBadShard is wrapped when a --shard value cannot be used.
var ErrBadShard = errors.New("invalid shard")

// ParseShard reads "i/n" (1 ≤ i ≤ n).
func ParseShard(s string) (index, total int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		index, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			total, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || total < 1 || index < 1 || index > total {
		return 0, 0, fmt.Errorf("%w: %q: want i/n with 1 <= i <= n, such as 2/4", ErrBadShard, s)
	}
	return index, total, nil
}

// Shard keeps the tests of shard index (1-based) of total. A test's shard
// depends only on a hash of its id, so adding or removing a test never
// moves another test to a different shard, and every shard of a suite
// together holds each test exactly once.
func (p *Plan) Shard(index, total int) {
	if total <= 1 {
		return
	}
	kept := p.Tests[:0:0]
	for _, t := range p.Tests {
		if ShardOf(t.ID, total) == index {
			kept = append(kept, t)
		}
	}
	p.Tests = kept
	// Start only the plugins this shard's assertions use.
	used := map[*plugin.Found]bool{}
	for _, t := range kept {
		for _, a := range t.Assertions {
			a.Leaves(func(l Leaf) { used[l.Plugin] = true })
		}
	}
	matchers := p.Matchers[:0:0]
	for _, f := range p.Matchers {
		if used[f] {
			matchers = append(matchers, f)
		}
	}
	p.Matchers = matchers
}

// ShardOf returns the 1-based shard of a test id among total shards.
func ShardOf(id string, total int) int {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id))
	return int(h.Sum64()%uint64(total)) + 1
}
