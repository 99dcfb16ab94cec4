package spans

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// Ids are derived, not random: re-exporting a run (live or from its saved
// JSON report) yields the same trace and span ids, so a consumer can
// de-duplicate imports and link a span back to the run that produced it.
// Each id is the leading bytes of a SHA-256 over a purpose tag and the
// parts that identify the span, each part length-prefixed so no two
// different inputs can run together into the same bytes.

// Id sizes in bytes, as OpenTelemetry defines them.
const (
	traceIDBytes = 16
	spanIDBytes  = 8
)

// runKey is what every id of a run derives from: the run id, or for a
// report that lacks one, its start time and suites, which still tell
// runs apart.
func runKey(run *report.Run) string {
	if run.RunID != "" {
		return run.RunID
	}
	return "started:" + run.StartedAt.UTC().Format("2006-01-02T15:04:05.999999999Z") + "|" + strings.Join(run.Suites, "|")
}

// TraceID returns the trace id of run: 32 lowercase hex digits derived
// from its run id, the same at every export of the run.
func TraceID(run *report.Run) string { return traceID(runKey(run)) }

// traceID is the trace id of the run with the given key.
func traceID(key string) string { return derive(traceIDBytes, "trace", key) }

// runSpanID is the id of the root span.
func runSpanID(key string) string { return derive(spanIDBytes, "span/run", key) }

// testSpanID is the id of a test's span. occurrence tells apart tests that
// share an id (a merged report can hold the same test twice).
func testSpanID(key, testID string, occurrence int) string {
	return derive(spanIDBytes, "span/test", key, testID, strconv.Itoa(occurrence))
}

// verdictSpanID is the id of the verdict span under a test span.
func verdictSpanID(key, testSpan string) string {
	return derive(spanIDBytes, "span/verdict", key, testSpan)
}

// derive hashes the parts into an id of n bytes, as hex. OpenTelemetry
// treats an all-zero id as invalid, so that one value is never returned.
func derive(n int, parts ...string) string {
	h := sha256.New()
	var size [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(size[:], uint64(len(p)))
		h.Write(size[:])
		h.Write([]byte(p))
	}
	id := h.Sum(nil)[:n]
	zero := true
	for _, b := range id {
		zero = zero && b == 0
	}
	if zero {
		id[n-1] = 1
	}
	return hex.EncodeToString(id)
}
