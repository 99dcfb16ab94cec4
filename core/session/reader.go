package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"time"
)

// errLineTooLong reports a stdout line longer than MaxMessageBytes.
var errLineTooLong = errors.New("line too long")

// lineReader splits the server's stdout into lines of bounded length.
type lineReader struct {
	br  *bufio.Reader
	buf []byte // holds lines longer than br's buffer
	max int
	// head keeps the start of the last discarded over-long line, size its
	// length, so the frame can be reported and its id recovered.
	head []byte
	size int
}

// keepBufferMax is the largest line buffer kept between lines; a bigger one
// (left by a huge response) is released.
const keepBufferMax = 1 << 20

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line including its "\n". The slice is valid until
// the next call. At the end of the stream it returns the last, unterminated,
// line (possibly empty) with the read error. A line longer than max is
// consumed and reported as errLineTooLong, with its start in head.
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > keepBufferMax {
		l.buf = nil
	}
	l.buf = l.buf[:0]
	for {
		frag, err := l.br.ReadSlice('\n')
		if err == nil && len(l.buf) == 0 {
			if len(frag) > l.max {
				return l.tooLong(frag, len(frag))
			}
			return frag, nil // fast path: the line fits the bufio buffer
		}
		if len(l.buf)+len(frag) > l.max {
			return l.skipLine(frag, err)
		}
		l.buf = append(l.buf, frag...)
		if err != bufio.ErrBufferFull {
			return l.buf, err
		}
	}
}

// skipLine discards the rest of an over-long line whose latest fragment is
// frag and returns errLineTooLong (or the read error that ended it).
func (l *lineReader) skipLine(frag []byte, err error) ([]byte, error) {
	size := len(l.buf) + len(frag)
	if len(l.buf) == 0 {
		l.buf = append(l.buf, frag[:min(len(frag), FrameLimit)]...)
	}
	for err == bufio.ErrBufferFull {
		frag, err = l.br.ReadSlice('\n')
		size += len(frag)
	}
	_, tooLong := l.tooLong(l.buf, size)
	if err != nil {
		return nil, err
	}
	return nil, tooLong
}

// tooLong records the start of an over-long line of the given size.
func (l *lineReader) tooLong(start []byte, size int) ([]byte, error) {
	l.head = append(l.head[:0], start[:min(len(start), FrameLimit)]...)
	l.size = size
	return nil, errLineTooLong
}

// envelope is the part of a JSON-RPC message the router looks at.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// readStdout routes every line the server writes: responses to our calls go
// to the waiting call, everything else (responses to mcp-go's own requests,
// notifications, server-to-client requests) to mcp-go, and non-JSON lines
// to the noise log. It returns when stdout ends or is closed.
func (s *Session) readStdout(lr *lineReader) {
	defer close(s.stdoutDone)
	defer s.toClient.Close() // mcp-go sees EOF and fails its own requests
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			s.routeTooLong(lr.head, lr.size)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			s.route(line)
		}
		if err != nil {
			return
		}
	}
}

// route handles one line from stdout.
func (s *Session) route(line []byte) {
	at := time.Now()
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		s.noise.add(line)
		return
	}
	if env.Method == "" && len(env.ID) > 0 {
		if c := s.takePending(string(env.ID)); c != nil {
			c.done <- reply{frame: newFrame(Received, at, line), result: env.Result, rpcErr: env.Error, at: at}
			return
		}
	}
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line[:len(line):len(line)], '\n') // copy: never write into bufio's buffer
	}
	// A closed pipe means mcp-go is shut down; the line is dropped.
	_, _ = s.toClient.Write(line)
}

// routeTooLong fails the call an over-long response was meant for, when its
// id can be found at the start of the line.
func (s *Session) routeTooLong(head []byte, size int) {
	at := time.Now()
	id := leadingID(head)
	if id == "" {
		s.noise.add(head)
		return
	}
	if c := s.takePending(id); c != nil {
		c.done <- reply{frame: newCutFrame(Received, at, head, size), tooLong: size, at: at}
	}
}

// leadingID finds the top-level "id" of a JSON object from its first bytes,
// stopping at "result", "error" or "params", whose values may be cut off,
// and at "method": a request from the server is not a response to us.
func leadingID(head []byte) string {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		key, _ := tok.(string)
		if key == "result" || key == "error" || key == "params" || key == "method" {
			return ""
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ""
		}
		if key == "id" {
			return string(v)
		}
	}
	return ""
}
