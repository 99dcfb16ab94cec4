package main

import (
	"bytes"
	"encoding/json"
	"sync"
)

// recentSlots is how many actual values a recentActuals remembers: a test's
// assertions usually look at a handful of targets (a text, a structured
// field or two), one after another.
const recentSlots = 4

// maxRecentBytes is the largest actual value remembered; a larger one is
// decoded every time, so a cache holds at most recentSlots times this.
const maxRecentBytes = 4 << 10

// recentActuals remembers the last few actual values decoded, by their
// JSON. The assertions of a batch come test by test, and a test's
// assertions judge the same few values again and again (100 assertions on
// four targets in BenchmarkJudge100k): decoding each of them again was a
// sixth of the matchers' time and a third of the bytes they allocated,
// which the plugin process then had to collect.
//
// A decoded value is shared by every assertion that meets it, so, as with
// the arguments argCache keeps, the matchers only read decoded values.
// Only the value is shared: the JSON an assertion carries (value.raw) is
// always its own, since the request's bytes are reused once the batch is
// answered.
type recentActuals struct {
	raw  [recentSlots][]byte // copies of the JSON, not the request's bytes
	v    [recentSlots]any
	next int
}

// recentCache hands each goroutine judging a batch a recentActuals of its
// own: a sync.Pool keeps one per processor, so the ranges of a batch,
// which run at once, do not share one, and nothing is locked. A
// collection empties it, which costs a decode per slot.
type recentCache struct{ pool sync.Pool }

// decode is decodeValue, from memory when raw is one of the values decoded
// last on this processor.
func (c *recentCache) decode(raw json.RawMessage) (value, error) {
	if len(raw) > maxRecentBytes {
		return decodeValue(raw)
	}
	r, _ := c.pool.Get().(*recentActuals)
	if r == nil {
		r = new(recentActuals)
	}
	defer c.pool.Put(r)
	for k := range r.raw {
		if r.raw[k] != nil && bytes.Equal(r.raw[k], raw) {
			return value{v: r.v[k], raw: raw}, nil
		}
	}
	val, err := decodeValue(raw)
	if err != nil {
		return val, err
	}
	k := r.next
	r.raw[k], r.v[k] = append(r.raw[k][:0], raw...), val.v
	r.next = (k + 1) % recentSlots
	return val, nil
}
