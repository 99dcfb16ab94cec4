// Package report defines the canonical run report: the one JSON document
// every reporter renders, `mcptest report` re-renders and `mcptest report
// merge` joins. It lives in the SDK so reporter plugins decode the same Go
// types the core encodes; it imports nothing beyond the standard library.
package report
