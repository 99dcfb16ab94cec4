package plugin

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestHostChunksByItemsAndBytes(t *testing.T) {
	h := NewHost(nil, HostOptions{MaxBatchItems: 3, MaxBatchBytes: 150})
	reqs := make([]MatchRequest, 10)
	for i := range reqs {
		reqs[i] = MatchRequest{Key: "k", Actual: json.RawMessage(`1`)}
	}
	reqs[4].Actual = json.RawMessage(strings.Repeat("1", 500)) // larger than the byte cap
	idx := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	chunks := h.chunks(reqs, idx)
	want := [][]int{{0, 1, 2}, {3}, {4}, {5, 6, 7}, {8, 9}}
	if fmt.Sprint(chunks) != fmt.Sprint(want) {
		t.Fatalf("chunks = %v, want %v", chunks, want)
	}
}
