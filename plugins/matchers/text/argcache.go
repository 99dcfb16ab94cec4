package main

import (
	"encoding/json"
	"maps"
	"sync"
	"sync/atomic"
)

// maxCheckedArgs bounds the arguments argCache keeps.
const maxCheckedArgs = 200_000

// argMap maps a key to its vetted arguments: argument JSON -> decoded.
type argMap map[string]map[string]any

// argCache keeps the arguments CheckArgument vetted, decoded. mcptest
// checks every argument of a run before the first Match, so each Match
// finds its argument here instead of decoding it a second time. Decoded
// arguments are read-only to the matchers, so one value serves every
// assertion that shares it.
//
// Match reads it for every item from several goroutines at once, so reads
// take no lock: they look in a published snapshot that is never written
// again. CheckArgument adds to a pending map under the lock; the first
// read that misses merges pending into a new snapshot. A run checks all
// its arguments before it matches any, so that happens about once.
type argCache struct {
	snap atomic.Pointer[argMap]
	// dirty is set while pending holds entries, so a miss with nothing
	// pending (arguments that were never checked) takes no lock either.
	dirty atomic.Bool

	mu      sync.Mutex
	pending argMap
	n       int
}

// put remembers a vetted argument while there is room.
func (c *argCache) put(key string, arg json.RawMessage, v any) {
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
		c.dirty.Store(true)
	}
}

// get returns the decoded argument CheckArgument vetted, if it did. The
// lookup does not copy arg: it runs on every assertion.
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
	if len(c.pending) > 0 {
		c.publish()
	}
	s := c.snap.Load()
	if s == nil {
		return nil, false
	}
	v, ok := (*s)[key][string(arg)]
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
	c.pending = nil
	c.snap.Store(&next)
	c.dirty.Store(false)
}
