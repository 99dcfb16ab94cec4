package main

import (
	"bytes"
	"encoding/json"
)

// chunkSize is how much of a huge payload is written at a time, so the
// server never holds the whole of it in memory.
const chunkSize = 64 << 10

// big answers id with one text block of n bytes: "BEGIN", then x's, then
// "END" (just the x's when n is too small for both markers).
func (s *server) big(id json.RawMessage, n int) {
	head, tail := "BEGIN", "END"
	if n < len(head)+len(tail) {
		head, tail = "", ""
	}
	parts := [][]byte{responseHead(id), []byte(`{"content":[{"type":"text","text":"` + head)}
	parts = append(parts, repeatChunks('x', n-len(head)-len(tail))...)
	parts = append(parts, []byte(tail+`"}]}}`+"\n"))
	s.writeRaw(parts...)
}

// deep answers id with a result whose structuredContent.nested holds depth
// nested arrays, and a text block saying how deep.
func (s *server) deep(id json.RawMessage, depth int) {
	depth = max(depth, 0)
	parts := [][]byte{responseHead(id), []byte(`{"content":[{"type":"text","text":"deep"}],"structuredContent":{"nested":`)}
	parts = append(parts, repeatChunks('[', depth)...)
	parts = append(parts, repeatChunks(']', depth)...)
	parts = append(parts, []byte("}}}\n"))
	s.writeRaw(parts...)
}

// responseHead starts a response to id, up to the result's value. The id
// comes first, as most servers write it.
func responseHead(id json.RawMessage) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":`)
}

// repeatChunks returns n copies of c as slices of at most chunkSize bytes
// that share one buffer.
func repeatChunks(c byte, n int) [][]byte {
	if n <= 0 {
		return nil
	}
	chunk := bytes.Repeat([]byte{c}, min(n, chunkSize))
	var out [][]byte
	for ; n > 0; n -= len(chunk) {
		out = append(out, chunk[:min(n, len(chunk))])
	}
	return out
}
