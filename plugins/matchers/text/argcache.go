package main

import (
	"encoding/json"
	"sync"
)

// maxCheckedArgs bounds the arguments argCache keeps.
const maxCheckedArgs = 200_000

// argCache keeps the arguments CheckArgument vetted, decoded. mcptest
// checks every argument of a run before the first Match, so each Match
// finds its argument here instead of decoding it a second time. Decoded
// arguments are read-only to the matchers, so one value serves every
// assertion that shares it.
type argCache struct {
	mu sync.RWMutex
	m  map[string]map[string]any // key -> argument JSON -> decoded argument
	n  int
}

// put remembers a vetted argument while there is room.
func (c *argCache) put(key string, arg json.RawMessage, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= maxCheckedArgs {
		return
	}
	if c.m == nil {
		c.m = map[string]map[string]any{}
	}
	byArg := c.m[key]
	if byArg == nil {
		byArg = map[string]any{}
		c.m[key] = byArg
	}
	if _, ok := byArg[string(arg)]; !ok {
		byArg[string(arg)] = v
		c.n++
	}
}

// get returns the decoded argument CheckArgument vetted, if it did. The
// lookup does not copy arg: it runs on every assertion.
func (c *argCache) get(key string, arg json.RawMessage) (any, bool) {
	c.mu.RLock()
	v, ok := c.m[key][string(arg)]
	c.mu.RUnlock()
	return v, ok
}
