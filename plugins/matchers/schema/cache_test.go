package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestSameSchemaCompilesOnce(t *testing.T) {
	h := serve(t)
	schema := `{"type":"object","required":["cache-test-once"]}`
	before := schemaguard.Compiles()
	if err := h.Check(matcherKey, schema); err != nil {
		t.Fatal(err)
	}
	h.Failure(h.Match(matcherKey, `{}`, schema))
	if r := h.Match(matcherKey, `{"cache-test-once":1}`, "  "+schema+"\n"); !r.Pass {
		t.Fatalf("%+v", r)
	}
	if n := schemaguard.Compiles() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
	// A different schema is a different entry.
	h.Match(matcherKey, `{}`, `{"type":"object","required":["cache-test-other"]}`)
	if n := schemaguard.Compiles() - before; n != 2 {
		t.Errorf("compiled %d times after a second schema, want 2", n)
	}
}

func TestBadSchemaCompilesOnce(t *testing.T) {
	h := serve(t)
	schema := `{"type":"cache-test-bad"}`
	before := schemaguard.Compiles()
	for i := 0; i < 3; i++ {
		h.MustRefuse(matcherKey, schema, "is not valid JSON Schema")
		h.MustInvalid(h.Match(matcherKey, `1`, schema), "is not valid JSON Schema")
	}
	if n := schemaguard.Compiles() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

// TestBatchSharesOneCompile sends a batch big enough for the SDK to spread
// over goroutines: concurrent first uses must wait for one compilation, and
// every result must land on its own item.
func TestBatchSharesOneCompile(t *testing.T) {
	h := serve(t)
	schema := `{"type":"integer","maximum":149,"$comment":"cache-test-batch"}`
	before := schemaguard.Compiles()
	var items []plugintest.MatchItem
	for i := 0; i < 300; i++ {
		items = append(items, plugintest.MatchItem{ID: uint64(1000 + i), Key: matcherKey,
			Actual: json.RawMessage(fmt.Sprint(i)), Argument: json.RawMessage(schema)})
	}
	res, err := h.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.ID != uint64(1000+i) || r.Pass != (i <= 149) || r.Error != "" {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
	if n := schemaguard.Compiles() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}
