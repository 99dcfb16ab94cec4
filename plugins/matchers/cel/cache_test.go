package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestSameExpressionCompilesOnce(t *testing.T) {
	h := serve(t)
	e := expr("value.count == 3 || 'cache-test-once' == ''")
	before := compiles.Load()
	if err := h.Check(matcherKey, e); err != nil {
		t.Fatal(err)
	}
	h.Failure(h.Match(matcherKey, `{"count":2}`, e))
	if r := h.Match(matcherKey, `{"count":3}`, e); !r.Pass {
		t.Fatalf("%+v", r)
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
	h.Match(matcherKey, `{"count":3}`, expr("value.count == 3 || 'cache-test-other' == ''"))
	if n := compiles.Load() - before; n != 2 {
		t.Errorf("compiled %d times after a second expression, want 2", n)
	}
}

func TestBadExpressionCompilesOnce(t *testing.T) {
	h := serve(t)
	e := expr("value.cache_test_bad >")
	before := compiles.Load()
	for i := 0; i < 3; i++ {
		h.MustRefuse(matcherKey, e, "does not compile")
		mustInvalid(t, h, h.Match(matcherKey, `{}`, e), "does not compile")
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

// TestBatchSharesOneProgram sends a batch big enough for the SDK to spread
// over goroutines: concurrent first uses must share one compilation, the
// program must be safe to run concurrently, and every result must land on
// its own item.
func TestBatchSharesOneProgram(t *testing.T) {
	h := serve(t)
	e := expr("value.n % 2 == 0 && 'cache-test-batch' != ''")
	before := compiles.Load()
	var items []plugintest.MatchItem
	for i := 0; i < 300; i++ {
		items = append(items, plugintest.MatchItem{ID: uint64(1000 + i), Key: matcherKey,
			Actual: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), Argument: json.RawMessage(e)})
	}
	res, err := h.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.ID != uint64(1000+i) || r.Pass != (i%2 == 0) || r.Error != "" {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

func TestCacheIsBounded(t *testing.T) {
	m, err := newMatcher(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < maxCachedPrograms+10; i++ {
		if _, err := m.programs.get(fmt.Sprintf("value == %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(m.programs.entries); n != maxCachedPrograms {
		t.Errorf("%d entries, want %d", n, maxCachedPrograms)
	}
	before := compiles.Load()
	for i := 0; i < 2; i++ {
		if _, err := m.programs.get("value == -1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := compiles.Load() - before; n != 2 {
		t.Errorf("uncached expression compiled %d times, want 2", n)
	}
}
