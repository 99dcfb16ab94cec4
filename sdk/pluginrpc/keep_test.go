package pluginrpc

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

// collect runs enough collections to empty any sync.Pool.
func collect() {
	for range 3 {
		runtime.GC()
	}
}

// TestKeepListSurvivesCollections: what a KeepList holds is still there
// after collections (a sync.Pool would have dropped it), up to its
// capacity, most recent first; a nil list keeps nothing.
func TestKeepListSurvivesCollections(t *testing.T) {
	k := NewKeepList[*int](2)
	a, b, c := new(int), new(int), new(int)
	if !k.Put(a) || !k.Put(b) {
		t.Fatal("a list with room refused a value")
	}
	if k.Put(c) {
		t.Fatal("a full list kept a third value")
	}
	collect()
	if v, ok := k.Get(); !ok || v != b {
		t.Fatalf("first Get = %p, %v; want the last value put (%p)", v, ok, b)
	}
	if v, ok := k.Get(); !ok || v != a {
		t.Fatalf("second Get = %p, %v; want %p", v, ok, a)
	}
	if _, ok := k.Get(); ok {
		t.Fatal("an empty list returned a value")
	}
	var none *KeepList[*int]
	if none.Put(a) {
		t.Fatal("a nil list kept a value")
	}
	if _, ok := none.Get(); ok {
		t.Fatal("a nil list returned a value")
	}
}

// TestBufferPoolKeepsBatchBuffersAcrossCollections: a message buffer of a
// batch's size is reused after collections, instead of allocated, zeroed
// and faulted in again; one beyond the kept tiers is not held for good.
func TestBufferPoolKeepsBatchBuffersAcrossCollections(t *testing.T) {
	p := newBufferPool()
	b := p.Get(300_000)
	p.Put(b)
	collect()
	if again := p.Get(300_000); again != b {
		t.Fatal("a batch-sized buffer was not kept across collections")
	}
	big := p.Get(1<<keptMaxShift + 1)
	p.Put(big)
	for i := range p.kept {
		if n := len(p.kept[i].free); n != 0 {
			t.Fatalf("tier %d holds %d buffers for good after a buffer beyond the kept tiers was put", i+poolMinShift, n)
		}
	}
}

// TestPackedBuffersKeptAcrossCollections: the host's encoding buffers of a
// batch survive collections.
func TestPackedBuffersKeptAcrossCollections(t *testing.T) {
	items := []MatchItem{{Key: "exact", Actual: []byte(`"a"`), Argument: []byte(`"a"`)}}
	// Start from an empty list, whatever other tests left in it.
	for {
		if _, ok := packedKept.Get(); !ok {
			break
		}
	}
	_, release := EncodePackedItems(items)
	release()
	collect()
	// (The encoded batch itself is in a buffer of msgPool, whose tiers
	// TestBufferPoolKeepsBatchBuffersAcrossCollections covers.)
	p := getPackedBuffers()
	if cap(p.idx) == 0 {
		t.Fatal("the packed buffers of the last batch were not kept across collections")
	}
	p.release()
}

// TestPackedScratchKeepsOnlySmallFailureBuffers: what a kept scratch holds
// for good is bounded whatever a batch's failures were and however many
// CPUs judged it: a grown buffer over failureScratchMax, and the buffers
// of ranges past failureScratchWorkers, go to the collector.
func TestPackedScratchKeepsOnlySmallFailureBuffers(t *testing.T) {
	sc := new(packedScratch)
	sc.growFailures(failureScratchWorkers + 2)
	for w := range failureScratchWorkers + 2 {
		buf := sc.failureBuf(w)
		size := 1 << 10
		if w == 1 {
			size = 2 * failureScratchMax
		}
		sc.failures[w] = append(buf, make([]byte, size)...)
	}
	sc.release()
	defer func() {
		// Leave the list as other tests expect to find it.
		for {
			if _, ok := packedScratchKept.Get(); !ok {
				break
			}
		}
	}()
	for w, f := range sc.failures {
		kept := f != nil
		if want := w != 1 && w < failureScratchWorkers; kept != want || len(f) != 0 {
			t.Errorf("range %d: kept %v (length %d), want kept %v and empty", w, kept, len(f), want)
		}
	}
}

// TestPackedScratchReleaseLeavesNothingBehind: a scratch released after a
// large batch and then a small one refers to nothing of either batch,
// anywhere in its arrays' capacity: release clears only what the last
// batch used, so this holds only if every batch's release cleared its own.
func TestPackedScratchReleaseLeavesNothingBehind(t *testing.T) {
	defer func() {
		for {
			if _, ok := packedScratchKept.Get(); !ok {
				break
			}
		}
	}()
	batch := func(n int) []byte {
		items := make([]MatchItem, n)
		for i := range items {
			items[i] = MatchItem{ID: uint64(i), Key: fmt.Sprintf("k%d", i%7), Actual: []byte(`"a"`), Argument: []byte(`"b"`),
				Options: contract.MatchOptions{Target: fmt.Sprintf("t%d", i), TestID: fmt.Sprintf("test%d", i%5)}}
		}
		packed, release := EncodePackedItems(items)
		t.Cleanup(release)
		return packed
	}
	sc := new(packedScratch)
	for _, n := range []int{300, 12} {
		items, _, err := decodePackedItemsInto(batch(n), sc)
		if err != nil {
			t.Fatal(err)
		}
		sc.results = append(sc.results[:0], make([]MatchItemResult, len(items))...)
		for i := range sc.results {
			sc.results[i] = MatchItemResult{Failure: []byte(`{}`), Error: "x"}
		}
		sc.release()
	}
	if len(sc.items) != 0 || len(sc.table) != 0 || len(sc.ctxs) != 0 || len(sc.results) != 0 {
		t.Fatal("release left lengths")
	}
	for i, it := range sc.items[:cap(sc.items)] {
		if it.key != "" || it.target != "" || it.message != "" || it.context != 0 || it.actual != nil || it.argument != nil || it.options != nil {
			t.Fatalf("item %d of the capacity still holds %+v", i, it)
		}
	}
	for i, s := range sc.table[:cap(sc.table)] {
		if s != "" {
			t.Fatalf("string %d of the capacity still holds %q", i, s)
		}
	}
	for i, c := range sc.ctxs[:cap(sc.ctxs)] {
		if c != (packedContext{}) {
			t.Fatalf("context %d of the capacity still holds %+v", i, c)
		}
	}
	for i, r := range sc.results[:cap(sc.results)] {
		if r.Failure != nil || r.Error != "" {
			t.Fatalf("result %d of the capacity still holds %+v", i, r)
		}
	}
}
