package plugin

import (
	"runtime"
	"testing"
)

// TestChunkBufKeptAcrossCollections: the results of a batch call
// are reused after the collections a large run makes between batches (a
// sync.Pool alone dropped them), and they come back cleared.
func TestChunkBufKeptAcrossCollections(t *testing.T) {
	b := getChunkBuf(500)
	b.results[0].Error = "bad"
	b.release()
	for range 3 {
		runtime.GC()
	}
	again := getChunkBuf(500)
	defer again.release()
	if again != b {
		t.Fatal("the batch buffer was not kept across collections")
	}
	if again.results[0].Error != "" {
		t.Fatal("a reused batch buffer still holds the last batch's results")
	}
}
