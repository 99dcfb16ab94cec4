package session

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcptest/mcptest/internal/lines"
)

func TestNewFrameTruncates(t *testing.T) {
	small := newFrame(Sent, time.Now(), []byte("{\"a\":1}\r\n"))
	if small.Raw != `{"a":1}` || small.Size != 7 || small.Truncated {
		t.Fatalf("small frame = %+v", small)
	}
	// A multi-byte character straddles the cut.
	big := strings.Repeat("a", FrameLimit-1) + "é" + strings.Repeat("b", 100)
	f := newFrame(Received, time.Now(), []byte(big))
	if !f.Truncated || f.Size != len(big) {
		t.Fatalf("big frame: truncated=%v size=%d", f.Truncated, f.Size)
	}
	if !utf8.ValidString(f.Raw) {
		t.Fatal("truncation split a UTF-8 sequence")
	}
	wantTail := "…[truncated: 65637 bytes in total]"
	if !strings.HasSuffix(f.Raw, wantTail) || len(f.Raw) != FrameLimit-1+len(wantTail) {
		t.Fatalf("raw ends %q (len %d)", f.Raw[len(f.Raw)-40:], len(f.Raw))
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("L", 200<<10)
	input := "short\n" + long + "\n" + `{"id":7,"result":"` + long + "\"}\n" + "mid\nlast"
	lr := lines.New(strings.NewReader(input), 150<<10, FrameLimit)
	var got []string
	var tooLong []int
	for {
		line, err := lr.Next()
		if errors.Is(err, lines.ErrTooLong) {
			tooLong = append(tooLong, lr.Size)
			continue
		}
		if len(line) > 0 {
			got = append(got, string(line))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"short\n", "mid\n", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines = %q", got)
	}
	if len(tooLong) != 2 || tooLong[0] != len(long)+1 {
		t.Fatalf("too long = %v", tooLong)
	}
	if id := leadingID(lr.Head); id != "7" {
		t.Fatalf("leadingID = %q", id)
	}
}

func TestLineReaderLongLineAcrossBuffer(t *testing.T) {
	long := strings.Repeat("x", 100<<10) // longer than bufio's 64 KiB
	lr := lines.New(bufio.NewReader(strings.NewReader(long+"\nnext\n")), 1<<20, FrameLimit)
	line, err := lr.Next()
	if err != nil || string(line) != long+"\n" {
		t.Fatalf("long line: %d bytes, %v", len(line), err)
	}
	line, err = lr.Next()
	if err != nil || string(line) != "next\n" {
		t.Fatalf("next line: %q, %v", line, err)
	}
}

func TestLeadingID(t *testing.T) {
	tests := map[string]string{
		`{"jsonrpc":"2.0","id":12,"result":{"content":[`: "12",
		`{"id":"abc","result":`:                          `"abc"`,
		`{"jsonrpc":"2.0","result":{"x":1},"id":3}`:      "",
		`not json`:                             "",
		`[1,2]`:                                "",
		`{"jsonrpc":"2.0","method":"x","id":4`: "",
	}
	for in, want := range tests {
		if got := leadingID([]byte(in)); got != want {
			t.Errorf("leadingID(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestSanitize(t *testing.T) {
	tests := map[string]string{
		"plain text\twith tab": "plain text\twith tab",
		"\x1b[31mred\x1b[0m":   `\x1b[31mred\x1b[0m`,
		"bell\a and nul\x00":   `bell\x07 and nul\x00`,
		"bad \xff utf8":        "bad \uFFFD utf8",
		"c1 \u0085 control":    `c1 \x85 control`,
		"ünïcödé":              "ünïcödé",
	}
	for in, want := range tests {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseRPCError(t *testing.T) {
	e := parseRPCError([]byte(`{"code":-32602,"message":"bad","data":{"n":12345678901234567890}}`))
	if e.Code != -32602 || e.Message != "bad" || string(e.Data) != `{"n":12345678901234567890}` {
		t.Fatalf("parsed = %+v", e)
	}
	e = parseRPCError([]byte(`{"code":"x"}`))
	if e.Code != 0 || !strings.Contains(e.Message, "malformed") || string(e.Data) != `{"code":"x"}` {
		t.Fatalf("malformed = %+v", e)
	}
}

// TestLineReaderHugeLines: lines past lines.KeepBufferMax are gathered in chunks
// and come back whole, at their exact size; one over the limit after some
// chunks is reported with its start and size; the lines around them are
// intact.
func TestLineReaderHugeLines(t *testing.T) {
	huge := `{"id":9,"result":"` + strings.Repeat("h", 9<<20) + `"}`
	over := `{"id":10,"result":"` + strings.Repeat("o", 13<<20) + `"}`
	input := "a\n" + huge + "\n" + "b\n" + over + "\n" + huge + "\nc\n"
	lr := lines.New(strings.NewReader(input), 12<<20, FrameLimit)
	var seen []string
	for {
		line, err := lr.Next()
		if errors.Is(err, lines.ErrTooLong) {
			if lr.Size != len(over)+1 || leadingID(lr.Head) != "10" {
				t.Fatalf("too long: size %d, head id %q", lr.Size, leadingID(lr.Head))
			}
			seen = append(seen, "TOO LONG")
			continue
		}
		if len(line) > lines.KeepBufferMax && cap(line) != len(line) {
			t.Fatalf("a %d-byte line kept %d bytes of capacity", len(line), cap(line))
		}
		if len(line) > 0 {
			seen = append(seen, string(line))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a\n", huge + "\n", "b\n", "TOO LONG", huge + "\n", "c\n"}
	if len(seen) != len(want) {
		t.Fatalf("%d lines, want %d", len(seen), len(want))
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("line %d: %d bytes %.30q, want %d bytes %.30q", i, len(seen[i]), seen[i], len(want[i]), want[i])
		}
	}
}
