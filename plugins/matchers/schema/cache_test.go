package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

func TestSameSchemaCompilesOnce(t *testing.T) {
	c := serve(t)
	schema := `{"type":"object","required":["cache-test-once"]}`
	before := compiles.Load()
	if got := checkOne(t, c, matcherKey, schema); got != "" {
		t.Fatal(got)
	}
	mustFail(t, matchOne(t, c, `{}`, schema))
	if r := matchOne(t, c, `{"cache-test-once":1}`, "  "+schema+"\n"); !r.Pass {
		t.Fatalf("%+v", r)
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
	// A different schema is a different entry.
	matchOne(t, c, `{}`, `{"type":"object","required":["cache-test-other"]}`)
	if n := compiles.Load() - before; n != 2 {
		t.Errorf("compiled %d times after a second schema, want 2", n)
	}
}

func TestBadSchemaCompilesOnce(t *testing.T) {
	c := serve(t)
	schema := `{"type":"cache-test-bad"}`
	before := compiles.Load()
	for i := 0; i < 3; i++ {
		if got := checkOne(t, c, matcherKey, schema); got == "" {
			t.Fatal("bad schema accepted")
		}
		mustInvalid(t, matchOne(t, c, `1`, schema), "is not valid JSON Schema")
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

// TestBatchSharesOneCompile sends a batch big enough for the SDK to spread
// over goroutines: concurrent first uses must wait for one compilation, and
// every result must land on its own item.
func TestBatchSharesOneCompile(t *testing.T) {
	c := serve(t)
	schema := `{"type":"integer","maximum":149,"$comment":"cache-test-batch"}`
	before := compiles.Load()
	var items []sdk.MatchItem
	for i := 0; i < 300; i++ {
		items = append(items, sdk.MatchItem{ID: uint64(1000 + i), Key: matcherKey,
			Actual: json.RawMessage(fmt.Sprint(i)), Argument: json.RawMessage(schema)})
	}
	res, err := c.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.ID != uint64(1000+i) || r.Pass != (i <= 149) || r.Error != "" {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

func TestCacheIsBounded(t *testing.T) {
	sc := newSchemaCache(defaultMaxDepth)
	for i := 0; i < maxCachedSchemas+10; i++ {
		if _, err := sc.get([]byte(fmt.Sprintf(`{"maximum":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(sc.entries); n != maxCachedSchemas {
		t.Errorf("%d entries, want %d", n, maxCachedSchemas)
	}
	// Past the bound a schema still works; it is compiled on each use.
	before := compiles.Load()
	for i := 0; i < 2; i++ {
		if _, err := sc.get([]byte(`{"minimum":0}`)); err != nil {
			t.Fatal(err)
		}
	}
	if n := compiles.Load() - before; n != 2 {
		t.Errorf("uncached schema compiled %d times, want 2", n)
	}
}
