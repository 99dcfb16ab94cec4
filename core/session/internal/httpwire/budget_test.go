package httpwire

import (
	"errors"
	"strings"
	"testing"
)

func TestReadBody(t *testing.T) {
	b := &bodyBudget{limit: 10 << 10}
	h := &bodyHold{budget: b}
	for _, hint := range []int64{-1, 5000, 100} {
		body, long, err := readBody(strings.NewReader(strings.Repeat("a", 5000)), 8000, h, hint)
		if err != nil || long || string(body) != strings.Repeat("a", 5000) {
			t.Fatalf("hint %d: got %d bytes, %v, %v", hint, len(body), long, err)
		}
		h.release()
	}
	_, long, err := readBody(strings.NewReader(strings.Repeat("a", 9000)), 8000, h, -1)
	if err != nil || !long {
		t.Fatalf("over the limit: %v, %v", long, err)
	}
	if b.used > 8001 {
		t.Errorf("holds %d bytes for an 8000-byte limit", b.used)
	}
	other := &bodyHold{budget: b}
	if _, _, err := readBody(strings.NewReader(strings.Repeat("a", 9000)), 8000, other, -1); !errors.Is(err, ErrBodyBudget) {
		t.Errorf("second body: err = %v, want the budget's", err)
	}
	h.release()
	other.release()
	if b.used != 0 {
		t.Errorf("%d bytes held after release", b.used)
	}
}
