package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// benchSecrets are four realistic credentials; none occurs in the texts
// below unless a benchmark plants one.
var benchSecrets = []string{"tok-3f9a7c1e-5b2d-4e8f-9a0b-1c2d3e4f5a6b", "sk-ant-api03-abcdefghijklmnop", "key-88d1/quoted", "ghp_0123456789abcdefABCDEF0123456789abcd"}

// frameText is a tools/call response of about size bytes whose text
// content is itself JSON, so the frame holds many escapes.
func frameText(size int) []byte {
	var items []map[string]any
	for i := 0; len(items)*60 < size; i++ {
		items = append(items, map[string]any{"id": i, "path": "/srv/data/file.txt", "note": "café ☕"})
	}
	inner, _ := json.Marshal(items)
	frame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": string(inner)}}}})
	return frame
}

// reportEvent wraps a frame the way a report does: as a JSON string.
func reportEvent(frame []byte) []byte {
	ev, _ := json.Marshal(map[string]any{"type": "test_finished", "test": map[string]any{
		"frames": []any{map[string]any{"direction": "received", "raw": string(frame)}}}})
	return ev
}

func BenchmarkPlainNoEscapes(b *testing.B) {
	r := New(benchSecrets...)
	text := []byte(strings.Repeat(`{"id":1,"name":"a plain value without escapes"}`, 1400)) // ~64 KiB
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Bytes(text)
	}
}

func BenchmarkFrameWithEscapes(b *testing.B) {
	r := New(benchSecrets...)
	text := frameText(64 << 10)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Bytes(text)
	}
}

func BenchmarkReportEventNested(b *testing.B) {
	r := New(benchSecrets...)
	text := reportEvent(frameText(64 << 10))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Bytes(text)
	}
}

func BenchmarkReportEventWithSecret(b *testing.B) {
	r := New(benchSecrets...)
	frame := frameText(64 << 10)
	frame = append(frame[:len(frame)-1:len(frame)-1], []byte(`,"echo":"tok-3f9a7c1e-5b2d-4e8f-9a0b-1c2d3e4f5a6b"}`)...)
	text := reportEvent(frame)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Bytes(text)
	}
}

func BenchmarkShortError(b *testing.B) {
	r := New(benchSecrets...)
	msg := `tools/call "echo": server returned an error: connection refused (http://127.0.0.1:8080/mcp)`
	for b.Loop() {
		r.String(msg)
	}
}

// BenchmarkRunReportOneSecret is a final report of 200 tests with a 1 KiB
// frame each, one of which echoes a secret: only that frame is decoded
// with offsets.
func BenchmarkRunReportOneSecret(b *testing.B) {
	r := New(benchSecrets...)
	var tests []any
	for i := range 200 {
		frame := frameText(1 << 10)
		if i == 123 {
			frame = append(frame[:len(frame)-1:len(frame)-1], []byte(`,"echo":"key-88d1\/quoted"}`)...)
		}
		tests = append(tests, map[string]any{"id": i, "frames": []any{map[string]any{"raw": string(frame)}}})
	}
	text, _ := json.Marshal(map[string]any{"tests": tests})
	if got := r.Bytes(text); bytes.Contains(got, []byte("88d1")) || !bytes.Contains(got, []byte(Mask)) {
		b.Fatal("the secret was not masked")
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Bytes(text)
	}
}

// BenchmarkFloorJSONValid is the floor the others compare with: checking
// the same 64 KiB frame is valid JSON, which every frame's reader does
// anyway.
func BenchmarkFloorJSONValid(b *testing.B) {
	text := frameText(64 << 10)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		json.Valid(text)
	}
}
