package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// A slice of the file read through the pager is the same bytes as the
// file's, across page boundaries and at its ends; a file that reads short
// reads as failed.
func TestPagerSlices(t *testing.T) {
	raw := make([]byte, 3*pagerPage+123)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	p := newPager(bytes.NewReader(raw), int64(len(raw)))
	for _, r := range [][2]int{{0, 1}, {0, len(raw)}, {pagerPage - 1, pagerPage + 1}, {10, 3 * pagerPage}, {len(raw) - 5, len(raw) + 100}, {-3, 4}, {50, 50}} {
		want := raw[max(0, r[0]):min(len(raw), r[1])]
		if got := p.slice(r[0], r[1]); !bytes.Equal(got, want) {
			t.Errorf("slice(%d, %d): %d bytes differ from the file's %d", r[0], r[1], len(got), len(want))
		}
	}
	if p.failed {
		t.Error("a whole file read as failed")
	}
	short := newPager(bytes.NewReader(raw[:100]), int64(len(raw)))
	short.slice(0, 200)
	if !short.failed {
		t.Error("a file shorter than its size did not read as failed")
	}
}

// A lookup in a full vetting cache reads a few of its pages, not the
// whole file (300 KB), and finds every verdict.
func TestFindVerdictReadsFewPages(t *testing.T) {
	entries := map[string]vetVerdict{}
	var keys []string
	for i := range maxVetEntries {
		k := vetKey("id", "matcher", "exact", fmt.Appendf(nil, "%d", i))
		entries[k] = vetVerdict{Day: int64(i)}
		keys = append(keys, k)
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	all := (len(raw) + pagerPage - 1) / pagerPage
	for _, k := range keys[:50] {
		p := newPager(bytes.NewReader(raw), int64(len(raw)))
		if v, ok := findVerdictAt(p, k); !ok || v != entries[k] {
			t.Fatalf("findVerdictAt(%s) = %+v, %v; want %+v", k, v, ok, entries[k])
		}
		if len(p.pages) > 24 {
			t.Fatalf("one lookup read %d of the file's %d pages", len(p.pages), all)
		}
	}
}
