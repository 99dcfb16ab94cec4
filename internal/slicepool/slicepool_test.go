package slicepool

import "testing"

func TestSlicePool(t *testing.T) {
	var p Pool[*int]
	s := p.Get(100)
	if len(s) != 0 || cap(s) != 128 {
		t.Fatalf("get(100): len %d cap %d, want 0 and 128", len(s), cap(s))
	}
	x := 1
	s = append(s, &x, &x)
	p.Put(s)
	// Whatever get returns (the pool may have dropped s), its spare
	// capacity holds nothing from before.
	s = p.Get(100)
	for _, v := range s[:cap(s)] {
		if v != nil {
			t.Fatal("a recycled slice still holds a value")
		}
	}
	if big := p.Get(1 << 13); cap(big) != 1<<13 {
		t.Errorf("get(8192): cap %d, want 8192 (not pooled, not rounded)", cap(big))
	}
	p.Put(make([]*int, 0, 100)) // not a pooled capacity: ignored
}
