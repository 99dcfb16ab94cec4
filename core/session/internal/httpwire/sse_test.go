package httpwire

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// readAll returns every event of stream as "type|id|data" strings.
func readAll(t *testing.T, r *sseReader) ([]string, error) {
	t.Helper()
	var out []string
	for {
		ev, err := r.next()
		if err != nil {
			return out, err
		}
		out = append(out, ev.event+"|"+ev.id+"|"+string(ev.data))
	}
}

func TestSSEReader(t *testing.T) {
	stream := "\uFEFF: a comment\n" +
		"data: first\n\n" +
		"event: endpoint\r\ndata: /message?sessionId=1\r\n\r\n" + // CRLF
		"id: 7\rretry: 250\rdata:  two spaces\rdata\r\r" + // CR only; "data" alone is an empty line
		"id: prime\ndata:\n\n" + // a priming event: empty data, the id counts
		"data: {\"a\":\ndata: 1}\n\n" + // JSON over two data lines
		"id: bad\x00id\nretry: 1x\nunknown: field\ndata:x\n\n" +
		"data: cut off at the end\n"
	r := newSSEReader(iotest.OneByteReader(strings.NewReader(stream)), 1<<20)
	got, err := readAll(t, r)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	want := []string{
		"message||first",
		"endpoint||/message?sessionId=1",
		"message|7| two spaces\n",
		"message|prime|", // dispatched, as the standard says; consumers skip it
		"message|prime|{\"a\":\n1}",
		"message|prime|x",
	}
	if strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Fatalf("events:\n%q\nwant\n%q", got, want)
	}
	if r.lastID != "prime" || r.retry != 250*time.Millisecond || r.comments != 1 {
		t.Errorf("lastID %q retry %v comments %d", r.lastID, r.retry, r.comments)
	}
}

func TestSSEReaderMixedEndings(t *testing.T) {
	// mcp-go's SSE server ends the endpoint event with CRLF after LF lines.
	r := newSSEReader(strings.NewReader("event: endpoint\ndata: /m\r\n\r\nevent: message\ndata: {}\n\n"), 1<<20)
	got, err := readAll(t, r)
	if !errors.Is(err, io.EOF) || len(got) != 2 || got[0] != "endpoint||/m" || got[1] != "message||{}" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestSSEReaderLimits(t *testing.T) {
	r := newSSEReader(strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 50)
	if _, err := r.next(); !errors.Is(err, errEventTooLong) {
		t.Fatalf("long line: %v", err)
	}
	r = newSSEReader(strings.NewReader(strings.Repeat("data: 0123456789\n", 10)+"\n"), 50)
	if _, err := r.next(); !errors.Is(err, errEventTooLong) {
		t.Fatalf("long event: %v", err)
	}
	r = newSSEReader(iotest.ErrReader(io.ErrUnexpectedEOF), 50)
	if _, err := r.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read error: %v", err)
	}
	if got := describeStreamEnd(io.ErrUnexpectedEOF); !strings.Contains(got, "broke") {
		t.Errorf("describeStreamEnd = %q", got)
	}
}

func TestHTTPErrorText(t *testing.T) {
	e := &HTTPError{Server: "s", Method: "POST", URL: "http://h/mcp", Status: 403,
		Header: map[string][]string{"Www-Authenticate": {"Bearer scope=\"x\""}}, Hint: "hint", Body: "nope"}
	want := `server "s": POST http://h/mcp: HTTP 403 Forbidden (WWW-Authenticate: Bearer scope="x"): hint; body: nope`
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
	if !errors.Is(e, ErrTransport) || !errors.Is(e, ErrAuth) {
		t.Error("403 is not ErrTransport and ErrAuth")
	}
	e = &HTTPError{Server: "s", Method: "GET", URL: "u", Err: io.EOF}
	if errors.Is(e, ErrAuth) || !errors.Is(e, io.EOF) || e.Error() != `server "s": GET u: EOF` {
		t.Errorf("network error: %v", e)
	}
	if got := excerpt([]byte(strings.Repeat("é", 400)), nil); len(got) > excerptLimit+4 || !strings.HasSuffix(got, "…") {
		t.Errorf("excerpt len %d", len(got))
	}
}
