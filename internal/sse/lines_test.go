package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// lines reads every line of text, one byte at a time so each ending is
// split from what follows.
func lines(t *testing.T, text string, max int) ([]string, error) {
	t.Helper()
	l := NewLineReader(iotest.OneByteReader(strings.NewReader(text)), max)
	var out []string
	for {
		line, err := l.Next()
		if err != nil {
			return out, err
		}
		out = append(out, string(line))
	}
}

func TestLineEndings(t *testing.T) {
	got, err := lines(t, "\uFEFFa\nb\r\nc\rd\r\r\ne\n\nunterminated", 100)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"a", "b", "c", "d", "", "e", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

// Only a byte-order mark at the very start is dropped.
func TestLineBOMOnlyAtStart(t *testing.T) {
	got, _ := lines(t, "a\n\uFEFFb\n", 100)
	if len(got) != 2 || got[1] != "\uFEFFb" {
		t.Fatalf("lines %q", got)
	}
	got, _ = lines(t, "\xEFx\n", 100) // starts like a BOM, is not one
	if len(got) != 1 || got[0] != "\xEFx" {
		t.Fatalf("lines %q", got)
	}
}

func TestLineBound(t *testing.T) {
	got, err := lines(t, "12345\n", 5)
	if !errors.Is(err, io.EOF) || len(got) != 1 {
		t.Fatalf("a line of exactly the bound: %q, %v", got, err)
	}
	_, err = lines(t, "123456\n", 5)
	if !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "exceeds 5 bytes") {
		t.Fatalf("a line over the bound: %v", err)
	}
}

// Reserve sees the line's size before it grows, and its error ends the read.
func TestLineReserve(t *testing.T) {
	budget := errors.New("over budget")
	l := NewLineReader(strings.NewReader("abc\n"+strings.Repeat("x", 10)+"\n"), 100)
	var asked []int
	l.Reserve = func(n int) error {
		asked = append(asked, n)
		if n > 5 {
			return budget
		}
		return nil
	}
	if line, err := l.Next(); err != nil || string(line) != "abc" {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := l.Next(); !errors.Is(err, budget) {
		t.Fatalf("second line: %v, want the Reserve error", err)
	}
	if len(asked) != 2 || asked[0] != 3 || asked[1] != 10 {
		t.Errorf("Reserve asked for %v", asked)
	}
}

// A line that ends in CR is returned before the next byte arrives: a
// server that pauses after "\r" must not hold up its event.
func TestLineCRDoesNotWaitForNextByte(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	l := NewLineReader(pr, 100)
	go func() { _, _ = pw.Write([]byte("data: x\r")) }()
	got := make(chan string, 1)
	go func() {
		line, _ := l.Next()
		got <- string(line)
	}()
	select {
	case line := <-got:
		if line != "data: x" {
			t.Fatalf("line %q", line)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next waited for the byte after CR")
	}
	// The LF that may follow belongs to the same line ending.
	go func() { _, _ = pw.Write([]byte("\nnext\n")) }()
	if line, err := l.Next(); err != nil || string(line) != "next" {
		t.Fatalf("after CRLF: %q, %v", line, err)
	}
}

func TestField(t *testing.T) {
	for line, want := range map[string]string{
		"data: x":     "data|x|false",
		"data:  x":    "data| x|false",
		"data:x:y":    "data|x:y|false",
		"data":        "data||false",
		": keepalive": "|keepalive|true",
		":":           "||true",
	} {
		name, value, comment := Field([]byte(line))
		got := string(name) + "|" + string(value) + "|" + map[bool]string{true: "true", false: "false"}[comment]
		if got != want {
			t.Errorf("Field(%q) = %s, want %s", line, got, want)
		}
	}
}

func TestRetryAndID(t *testing.T) {
	for value, want := range map[string]int64{"250": 250, "0": 0, "": -1, "5s": -1, "-1": -1, " 1": -1, "99999999999999999999": -1} {
		n, ok := Retry([]byte(value))
		if (want < 0) == ok || (ok && n != want) {
			t.Errorf("Retry(%q) = %d, %v, want %d", value, n, ok, want)
		}
	}
	if ValidID([]byte("a\x00b")) || !ValidID([]byte("")) || !ValidID([]byte("7")) {
		t.Error("ValidID")
	}
}
