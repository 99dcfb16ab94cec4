package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// mcpMaxLine bounds one JSON-RPC message read by `mcptest mcp-server`.
const mcpMaxLine = 16 << 20

// lockedWriter serialises whole-message writes of the server and of the
// request filter to stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// filterRequests copies JSON-RPC lines from in to the returned reader,
// answering the invalid requests itself with -32600 (the SDK's stdio
// server answers a request without a method with -32601 and ignores a
// null id, which JSON-RPC 2.0 does not allow). Lines that are not JSON
// objects pass through, for the server's own parse error.
func filterRequests(in io.Reader, out io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			if len(bytes.TrimSpace(line)) > 0 {
				if reply := invalidRequest(line); reply != nil {
					_, _ = out.Write(reply)
				} else if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				_ = pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// errLineTooLong ends the input: a message over mcpMaxLine.
var errLineTooLong = errors.New("a message is longer than 16 MiB")

// readLine reads one line, newline included, bounded by mcpMaxLine.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > mcpMaxLine {
			return nil, errLineTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// invalidRequest returns the -32600 answer to a line that is a JSON
// object but not a valid request, notification or response; nil
// otherwise.
func invalidRequest(line []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	_, isResult := m["result"]
	_, isError := m["error"]
	id, hasID := m["id"]
	reason := ""
	switch {
	case string(m["jsonrpc"]) != `"2.0"`:
		reason = `jsonrpc must be "2.0"`
	case isResult || isError:
		return nil
	case m["method"] == nil:
		reason = "no method"
	case hasID && string(bytes.TrimSpace(id)) == "null":
		reason = "the id must not be null"
	default:
		return nil
	}
	if !hasID || (!bytes.HasPrefix(bytes.TrimSpace(id), []byte(`"`)) && !isNumber(id)) {
		id = json.RawMessage("null")
	}
	reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": -32600, "message": "Invalid Request: " + reason}})
	return append(reply, '\n')
}

func isNumber(raw json.RawMessage) bool {
	var n json.Number
	return json.Unmarshal(raw, &n) == nil
}
