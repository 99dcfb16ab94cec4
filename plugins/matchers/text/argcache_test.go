package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// TestArgCacheServesCheckedArguments: an argument put before and after
// the first lookup is found, an unknown one is not, and lookups racing
// with puts see either nothing or the value put (run with -race).
func TestArgCacheServesCheckedArguments(t *testing.T) {
	var c argCache
	if _, ok := c.get("exact", json.RawMessage(`"a"`)); ok {
		t.Fatal("an empty cache found an argument")
	}
	c.put("exact", json.RawMessage(`"a"`), "a")
	if v, ok := c.get("exact", json.RawMessage(`"a"`)); !ok || v != "a" {
		t.Fatalf("get after put = %v, %v", v, ok)
	}
	c.put("exact", json.RawMessage(`"b"`), "b")
	c.put("regex", json.RawMessage(`"a"`), "re")
	for key, want := range map[string]any{"exact": "b", "regex": "re"} {
		arg := json.RawMessage(`"b"`)
		if key == "regex" {
			arg = json.RawMessage(`"a"`)
		}
		if v, ok := c.get(key, arg); !ok || v != want {
			t.Errorf("get(%s, %s) = %v, %v; want %v", key, arg, v, ok, want)
		}
	}
	if v, ok := c.get("exact", json.RawMessage(`"a"`)); !ok || v != "a" {
		t.Errorf("an argument published earlier was lost: %v, %v", v, ok)
	}
	if _, ok := c.get("contains", json.RawMessage(`"a"`)); ok {
		t.Error("found an argument under a key it was not put under")
	}

	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				arg := json.RawMessage(fmt.Sprintf(`"%d-%d"`, g%2, i))
				if g < 2 {
					c.put("exact", arg, string(arg))
				} else if v, ok := c.get("exact", arg); ok && v != string(arg) {
					t.Errorf("get(%s) = %v", arg, v)
				}
			}
		}()
	}
	wg.Wait()
	for i := range 500 {
		arg := json.RawMessage(fmt.Sprintf(`"1-%d"`, i))
		if v, ok := c.get("exact", arg); !ok || v != string(arg) {
			t.Fatalf("after the puts, get(%s) = %v, %v", arg, v, ok)
		}
	}
}

// TestArgCacheRemembersWhatMatchDecoded: an argument Match decoded itself
// (mcptest remembered its verdict from an earlier run, so this process
// never checked it) is kept for the assertions that share it, under a
// copy of its bytes: the request's memory is reused after the call.
func TestArgCacheRemembersWhatMatchDecoded(t *testing.T) {
	f := newFamily()
	arg := []byte(`"abc"`)
	in := sdk.MatchInput{Key: "exact", Actual: json.RawMessage(`"abd"`), Argument: arg}
	if r, err := f.Match(context.Background(), in); err != nil || r.Pass {
		t.Fatalf("exact abc on abd: %+v, %v", r, err)
	}
	if v, ok := f.checked.get("exact", json.RawMessage(`"abc"`)); !ok || v != "abc" {
		t.Fatalf("the argument Match decoded was not kept: %v, %v", v, ok)
	}
	// The same buffer reused for another argument must not find the
	// first one's value.
	copy(arg, `"abd"`)
	if r, err := f.Match(context.Background(), in); err != nil || !r.Pass {
		t.Fatalf("exact abd on abd after the buffer was reused: %+v, %v", r, err)
	}
	if v, ok := f.checked.get("exact", json.RawMessage(`"abc"`)); !ok || v != "abc" {
		t.Fatalf("the kept argument changed with the request's bytes: %v, %v", v, ok)
	}
	// An invalid argument is an error every time, never kept.
	bad := sdk.MatchInput{Key: "regex", Actual: json.RawMessage(`"x"`), Argument: json.RawMessage(`"("`)}
	for range 2 {
		if _, err := f.Match(context.Background(), bad); !errors.Is(err, sdk.ErrInvalidArgument) {
			t.Fatalf("regex ( = %v, want an invalid argument", err)
		}
	}
}

// TestArgCacheMergesGeometrically: arguments remembered one at a time,
// looked up in between as Match does, are all found, and the snapshot is
// copied a logarithmic number of times, not once per argument (which
// made a run with many distinct arguments quadratic).
func TestArgCacheMergesGeometrically(t *testing.T) {
	var c argCache
	const n = 20_000
	for i := range n {
		arg := json.RawMessage(fmt.Sprintf(`"%d"`, i))
		if _, ok := c.get("exact", arg); ok {
			t.Fatalf("%s found before it was remembered", arg)
		}
		c.remember("exact", arg, i)
		if v, ok := c.get("exact", arg); !ok || v != i {
			t.Fatalf("get(%s) right after remember = %v, %v", arg, v, ok)
		}
	}
	for i := range n {
		if v, ok := c.get("exact", json.RawMessage(fmt.Sprintf(`"%d"`, i))); !ok || v != i {
			t.Fatalf("get(%d) = %v, %v", i, v, ok)
		}
	}
	if c.publishes > 20 {
		t.Errorf("%d snapshots published for %d arguments; want a logarithmic number", c.publishes, n)
	}
	// Arguments CheckArgument vetted are published at the next read, so
	// the run's lookups take no lock.
	c.put("regex", json.RawMessage(`"a"`), "a")
	before := c.publishes
	if _, ok := c.get("regex", json.RawMessage(`"a"`)); !ok || c.publishes != before+1 || c.dirty.Load() {
		t.Errorf("a checked argument was not published at the first read (found %v, publishes %d -> %d)", ok, before, c.publishes)
	}

	// A few arguments remembered beside many checked ones (mcptest asked
	// the plugin about most arguments and remembered the rest) are
	// published once reads of them have taken the lock for a while, not
	// only once they are half as many as the snapshot: they would
	// otherwise be read under the lock for the whole run.
	var d argCache
	for i := range 10_000 {
		d.put("exact", json.RawMessage(fmt.Sprintf(`"c%d"`, i)), i)
	}
	d.get("exact", json.RawMessage(`"c0"`))
	for i := range 10 {
		d.remember("regex", json.RawMessage(fmt.Sprintf(`"r%d"`, i)), i)
	}
	for k := range 20_000 {
		if v, ok := d.get("regex", json.RawMessage(fmt.Sprintf(`"r%d"`, k%10))); !ok || v != k%10 {
			t.Fatalf("get(r%d) = %v, %v", k%10, v, ok)
		}
	}
	if d.dirty.Load() {
		t.Errorf("10 remembered arguments read 20,000 times are still pending (%d reads took the lock since the last publish)", d.locked)
	}
}
