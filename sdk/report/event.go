package report

import "time"

// EventType names a run event.
type EventType string

// The run events, in the order a run emits them: one run_started, then for
// each test a test_started and a test_finished (tests may interleave), then
// one run_finished carrying the complete report.
const (
	EventRunStarted   EventType = "run_started"
	EventTestStarted  EventType = "test_started"
	EventTestFinished EventType = "test_finished"
	EventRunFinished  EventType = "run_finished"
)

// Event is one step of a run, as streamed to reporters.
type Event struct {
	Type EventType `json:"type"`
	Time time.Time `json:"time"`
	// Total is the number of planned tests (run_started).
	Total int `json:"total,omitempty"`
	// Test is set on test_started (ID, name and location only) and
	// test_finished (the full result).
	Test *Test `json:"test,omitempty"`
	// Run is set on run_started (header fields only) and run_finished (the
	// complete report).
	Run *Run `json:"run,omitempty"`
}
