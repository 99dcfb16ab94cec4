package main

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/internal/textbench"
	"github.com/mcptest/mcptest/sdk"
)

// TestRecentActualsKeepNoRequestBytes: a remembered value is found by its
// JSON even after the bytes it was decoded from were reused for another
// value (the plugin reuses a request's memory once the batch is
// answered), and each value carries the JSON of its own assertion.
func TestRecentActualsKeepNoRequestBytes(t *testing.T) {
	var c recentCache
	buf := []byte(`"abc"`)
	if v, err := c.decode(buf); err != nil || v.v != "abc" {
		t.Fatalf("decode = %v, %v", v.v, err)
	}
	copy(buf, `"xyz"`)
	v, err := c.decode(json.RawMessage(`"abc"`))
	if err != nil || v.v != "abc" || string(v.raw) != `"abc"` {
		t.Fatalf("after the bytes were reused: %v (%s), %v", v.v, v.raw, err)
	}
	v, err = c.decode(buf)
	if err != nil || v.v != "xyz" || &v.raw[0] != &buf[0] {
		t.Fatalf("the reused bytes: %v, %v (raw is not the assertion's own)", v.v, err)
	}
	if _, err := c.decode(json.RawMessage(`{"a":`)); err == nil {
		t.Fatal("bad JSON decoded")
	}
	if _, err := c.decode(json.RawMessage(`{"a":`)); err == nil {
		t.Fatal("bad JSON decoded the second time")
	}
}

// TestSharedActualsJudgeAsFreshOnes: judging BenchmarkJudge100k's
// assertions in order with one family, from several goroutines at once
// as a batch's ranges do, gives every assertion the verdict and failure a
// family that decodes its actual value afresh gives. A matcher changing a
// decoded value it shares with the next assertions would show here.
func TestSharedActualsJudgeAsFreshOnes(t *testing.T) {
	gen := textbench.Generate()[:40]
	var inputs []sdk.MatchInput
	for _, tc := range gen {
		for _, a := range tc.Assertions {
			inputs = append(inputs, sdk.MatchInput{Key: a.Key, Actual: a.Actual, Argument: a.Argument, Host: benchNoHost{}})
		}
	}
	ctx := context.Background()
	want := make([]sdk.MatchResult, len(inputs))
	for i, in := range inputs {
		r, err := newFamily().Match(ctx, in)
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		want[i] = r
	}
	shared := newFamily()
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(inputs); i++ {
				r, err := shared.Match(ctx, inputs[i])
				if err != nil {
					t.Errorf("item %d: %v", i, err)
					return
				}
				if !reflect.DeepEqual(r, want[i]) {
					t.Errorf("item %d (%s %s on %s): %+v, fresh %+v", i, inputs[i].Key, inputs[i].Argument, inputs[i].Actual, r, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}
