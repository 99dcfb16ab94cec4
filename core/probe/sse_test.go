package probe

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, text string) []Event {
	t.Helper()
	r := NewSSEReader(strings.NewReader(text), 0)
	var out []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

func TestSSEFields(t *testing.T) {
	evs := readAll(t, "id: 1\ndata:\n\n: keep-alive\n\nevent: message\ndata: {\"a\":1}\ndata: {\"b\":2}\nretry: 500\n\n")
	if len(evs) != 3 {
		t.Fatalf("got %d events: %+v", len(evs), evs)
	}
	if p := evs[0]; !p.HasID || p.ID != "1" || !p.IsPriming() || !p.HasData {
		t.Errorf("priming event: %+v", p)
	}
	if c := evs[1]; len(c.Comments) != 1 || c.Comments[0] != "keep-alive" || c.HasData {
		t.Errorf("comment block: %+v", c)
	}
	m := evs[2]
	if m.Type != "message" || m.Data != "{\"a\":1}\n{\"b\":2}" || m.Retry != 500 {
		t.Errorf("message event: %+v", m)
	}
	if m.HasID || m.ID != "1" {
		t.Errorf("the last event id should carry over without HasID: %+v", m)
	}
}

func TestSSELineEndings(t *testing.T) {
	evs := readAll(t, "data: a\r\n\r\ndata: b\r\rid: x\rdata: c\r\r")
	if len(evs) != 3 || evs[0].Data != "a" || evs[1].Data != "b" || evs[2].Data != "c" || evs[2].ID != "x" {
		t.Fatalf("events: %+v", evs)
	}
}

func TestSSEIgnoresBadRetryAndNULID(t *testing.T) {
	evs := readAll(t, "retry: 5s\nid: a\x00b\ndata: x\n\n")
	if len(evs) != 1 || evs[0].Retry != -1 || evs[0].HasID {
		t.Fatalf("events: %+v", evs)
	}
}

func TestSSEDropsUnterminatedBlock(t *testing.T) {
	evs := readAll(t, "data: done\n\ndata: partial")
	if len(evs) != 1 {
		t.Fatalf("events: %+v", evs)
	}
}

func TestSSELineTooLong(t *testing.T) {
	r := NewSSEReader(strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 10)
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v", err)
	}
}
