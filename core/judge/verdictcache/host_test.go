package verdictcache

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/internal/judgereply"
)

// TestHostResponsesKeptApart: a host call's response is stored under its
// own kind, survives a new instance on the same folder, and neither a
// verdict nor a host response answers the other's key.
func TestHostResponsesKeptApart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	k := Key{Model: "gpt-4o-mini", Prompt: "digest", Juror: 1, Trial: 2}
	c := New(dir)
	_, hit, done, err := c.BeginResponse(ctx, k)
	if err != nil || hit {
		t.Fatalf("empty cache: hit %v, err %v", hit, err)
	}
	done(json.RawMessage(`{"message":{"role":"assistant","content":"ok"}}`))

	got, hit, _, err := New(dir).BeginResponse(ctx, k)
	if err != nil || !hit || string(got) != `{"message":{"role":"assistant","content":"ok"}}` {
		t.Fatalf("second instance: %s, hit %v, err %v", got, hit, err)
	}
	if _, ok := New(dir).Get(k); ok {
		t.Fatal("a verdict lookup was answered by a host response")
	}
	if err := c.Put(k, judgereply.Reply{Score: 1, Reason: "r"}); err != nil {
		t.Fatal(err)
	}
	if got, hit, _, _ := New(dir).BeginResponse(ctx, k); !hit || string(got) != `{"message":{"role":"assistant","content":"ok"}}` {
		t.Fatalf("the verdict overwrote the host response: %s %v", got, hit)
	}
	// Another seat is another question.
	other := k
	other.Juror = 0
	if _, hit, done, _ := New(dir).BeginResponse(ctx, other); hit {
		t.Fatal("juror 0 was answered with juror 1's response")
	} else {
		done(nil)
	}
}
