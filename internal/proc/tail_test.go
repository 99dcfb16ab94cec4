package proc

import (
	"strings"
	"sync"
	"testing"
)

func TestTailLines(t *testing.T) {
	b := NewTail(16)
	_, _ = b.Write([]byte("one\ntwo\n"))
	_, _ = b.Write([]byte("three\n"))
	if got := b.Lines(2); got != "two\nthree" {
		t.Fatalf("Lines(2) = %q", got)
	}
	if got := b.Lines(0); got != "one\ntwo\nthree" {
		t.Fatalf("Lines(0) = %q", got)
	}
	for range 100 {
		_, _ = b.Write([]byte("four\r\n"))
	}
	if got := b.Lines(10); len(got) > 16 || !strings.HasSuffix(got, "four\nfour") {
		t.Fatalf("bounded tail = %q", got)
	}
	_, _ = b.Write([]byte(strings.Repeat("z", 40) + "\nlast"))
	if got := b.Lines(1); got != "last" {
		t.Fatalf("Lines(1) after a big write = %q", got)
	}
	if got := b.Lines(5); got != strings.Repeat("z", 11)+"\nlast" {
		t.Fatalf("Lines(5) = %q", got)
	}
}

// String and Dropped agree with the bytes written, across the lazy
// compaction, a write bigger than the bound and the zero value's default.
func TestTailBytesAndDropped(t *testing.T) {
	var b Tail
	b.Max = 5
	_, _ = b.Write([]byte("abc"))
	if b.String() != "abc" || b.Dropped() != 0 {
		t.Errorf("%q %d", b.String(), b.Dropped())
	}
	_, _ = b.Write([]byte("defg"))
	if b.String() != "cdefg" || b.Dropped() != 2 {
		t.Errorf("%q %d", b.String(), b.Dropped())
	}
	for i := range 20 {
		_, _ = b.Write([]byte{byte('a' + i)})
	}
	if b.String() != "pqrst" || b.Dropped() != 22 {
		t.Errorf("%q %d", b.String(), b.Dropped())
	}
	_, _ = b.Write([]byte("0123456789"))
	if b.String() != "56789" || b.Dropped() != 32 {
		t.Errorf("%q %d", b.String(), b.Dropped())
	}
	var d Tail
	_, _ = d.Write([]byte(strings.Repeat("x", DefaultTailBytes+3)))
	if len(d.String()) != DefaultTailBytes || d.Dropped() != 3 {
		t.Errorf("default bound: kept %d, dropped %d", len(d.String()), d.Dropped())
	}
}

// Concurrent writers (stdout and stderr sharing one tail) lose no count.
func TestTailConcurrent(t *testing.T) {
	b := NewTail(100)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				_, _ = b.Write([]byte("line\n"))
			}
		}()
	}
	wg.Wait()
	if got := int64(len(b.String())) + b.Dropped(); got != 4*1000*5 {
		t.Errorf("kept+dropped = %d, want %d", got, 4*1000*5)
	}
}
