package schemaguard

import (
	"fmt"
	"testing"
)

func TestCacheIsBounded(t *testing.T) {
	sc := NewCache(DefaultMaxDepth)
	for i := 0; i < maxCachedSchemas+10; i++ {
		if _, err := sc.Get([]byte(fmt.Sprintf(`{"maximum":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(sc.entries); n != maxCachedSchemas {
		t.Errorf("%d entries, want %d", n, maxCachedSchemas)
	}
	// Past the bound a schema still works; it is compiled on each use.
	before := Compiles()
	for i := 0; i < 2; i++ {
		if _, err := sc.Get([]byte(`{"minimum":0}`)); err != nil {
			t.Fatal(err)
		}
	}
	if n := Compiles() - before; n != 2 {
		t.Errorf("uncached schema compiled %d times, want 2", n)
	}
}

func TestCacheRemembersErrors(t *testing.T) {
	sc := NewCache(DefaultMaxDepth)
	before := Compiles()
	for i := 0; i < 3; i++ {
		if _, err := sc.Get([]byte(`{"type":"cache-test-bad"}`)); err == nil {
			t.Fatal("bad schema accepted")
		}
	}
	if n := Compiles() - before; n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}
