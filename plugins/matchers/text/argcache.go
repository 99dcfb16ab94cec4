package main

import (
	"encoding/json"
	"maps"
	"sync"
	"sync/atomic"
)

// maxCheckedArgs bounds the arguments argCache keeps.
const maxCheckedArgs = 200_000

// minPublish is the fewest arguments Match decoded itself that are merged
// into a new snapshot at once (see argCache.remember).
const minPublish = 64

// argMap maps a key to its vetted arguments: argument JSON -> decoded.
type argMap map[string]map[string]any

// argCache keeps decoded arguments. mcptest checks every argument of a run
// before the first Match, so each Match finds its argument here instead of
// decoding it a second time. Decoded arguments are read-only to the
// matchers, so one value serves every assertion that shares it.
//
// An argument mcptest did not send for checking (it remembered the
// plugin's verdict from an earlier run, so this process never saw it) is
// decoded by the first Match that meets it and remembered too, so the
// assertions after it that share the argument do not decode it again.
//
// Match reads it for every item from several goroutines at once, so reads
// take no lock: they look in a published snapshot that is never written
// again. New arguments go to a pending map under the lock and are merged
// into a new snapshot: those CheckArgument vetted at the first read that
// misses (a run checks all its arguments before it matches any, so that
// happens about once); those Match decoded once they are half as many as
// the snapshot holds, or once as many reads as it holds have had to take
// the lock, so merging, which copies the snapshot, costs a constant
// per argument and per read however many there are. Until then a read
// that misses the snapshot looks in the pending map under the lock.
type argCache struct {
	snap atomic.Pointer[argMap]
	// dirty is set while pending holds entries, so a miss with nothing
	// pending (arguments that were never checked) takes no lock either.
	dirty atomic.Bool

	mu      sync.Mutex
	pending argMap
	// n counts the arguments kept (snapshot and pending), npending those
	// pending; checked says pending holds arguments CheckArgument vetted,
	// which the next read publishes.
	n, npending int
	checked     bool
	// locked counts the reads that took the lock since the last publish.
	locked int
	// publishes counts the snapshots published, so a test can check that
	// merging stays geometric.
	publishes int
}

// put remembers an argument CheckArgument vetted while there is room.
func (c *argCache) put(key string, arg json.RawMessage, v any) {
	c.add(key, arg, v, true)
}

// remember keeps an argument Match had to decode itself while there is
// room.
func (c *argCache) remember(key string, arg json.RawMessage, v any) {
	c.add(key, arg, v, false)
}

func (c *argCache) add(key string, arg json.RawMessage, v any, checked bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= maxCheckedArgs {
		return
	}
	if s := c.snap.Load(); s != nil {
		if _, ok := (*s)[key][string(arg)]; ok {
			return
		}
	}
	if c.pending == nil {
		c.pending = argMap{}
	}
	byArg := c.pending[key]
	if byArg == nil {
		byArg = map[string]any{}
		c.pending[key] = byArg
	}
	if _, ok := byArg[string(arg)]; !ok {
		byArg[string(arg)] = v
		c.n++
		c.npending++
		c.checked = c.checked || checked
		c.dirty.Store(true)
	}
}

// get returns the decoded argument kept for key, if any. The lookup does
// not copy arg: it runs on every assertion.
func (c *argCache) get(key string, arg json.RawMessage) (any, bool) {
	if s := c.snap.Load(); s != nil {
		if v, ok := (*s)[key][string(arg)]; ok {
			return v, true
		}
	}
	if !c.dirty.Load() {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.locked++
	if c.npending > 0 && (c.checked || c.npending >= max(minPublish, (c.n-c.npending)/2) || c.locked >= max(minPublish, c.n)) {
		c.publish()
	}
	if s := c.snap.Load(); s != nil {
		if v, ok := (*s)[key][string(arg)]; ok {
			return v, true
		}
	}
	v, ok := c.pending[key][string(arg)]
	return v, ok
}

// publish merges pending into a new snapshot; c.mu is held.
func (c *argCache) publish() {
	next := argMap{}
	if s := c.snap.Load(); s != nil {
		for key, byArg := range *s {
			next[key] = maps.Clone(byArg)
		}
	}
	for key, byArg := range c.pending {
		if next[key] == nil {
			next[key] = byArg
			continue
		}
		maps.Copy(next[key], byArg)
	}
	c.pending, c.npending, c.checked, c.locked = nil, 0, false, 0
	c.publishes++
	c.snap.Store(&next)
	c.dirty.Store(false)
}
