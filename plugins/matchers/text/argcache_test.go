package main

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
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
