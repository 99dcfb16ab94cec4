package pluginrpc

import (
	"encoding/json"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// The wire items: what the host sends to a plugin and gets back, in Go
// types. Both sides use them (the plugin side through the packed codec and
// the conversions).

// ErrorKind classifies a per-item error reported by a plugin.
type ErrorKind int

// The per-item error kinds.
const (
	ErrorKindNone ErrorKind = iota
	// ErrorKindInternal: the item could not be evaluated.
	ErrorKindInternal
	// ErrorKindInvalidArgument: the assertion is wrong as written.
	ErrorKindInvalidArgument
	// ErrorKindPanic: the plugin panicked on the item and recovered.
	ErrorKindPanic
)

// String names the kind as reports show it.
func (k ErrorKind) String() string {
	switch k {
	case ErrorKindInternal:
		return "internal"
	case ErrorKindInvalidArgument:
		return "invalid_argument"
	case ErrorKindPanic:
		return "panic"
	}
	return "none"
}

// MatchItem is one assertion sent by the host to a matcher plugin.
type MatchItem struct {
	ID       uint64
	Key      string
	Actual   json.RawMessage
	Argument json.RawMessage
	// Options is the per-assertion context; Options.Raw travels as JSON.
	Options contract.MatchOptions
}

// MatchItemResult is a plugin's verdict on one MatchItem.
type MatchItemResult struct {
	ID    uint64
	Pass  bool
	Score *float64
	// Failure is the structured failure as JSON, when the item failed.
	Failure json.RawMessage
	// Error is set when the item could not be evaluated.
	Error     string
	ErrorKind ErrorKind
	// Deferred is set when the item was not judged because a model it
	// needs has no key; the text names the variable.
	Deferred string
	// Eval is the grade behind the verdict (a report.Eval as JSON), from a
	// model-graded matcher; nil otherwise.
	Eval json.RawMessage
}

// CheckItem is one matcher argument to validate before the run.
type CheckItem struct {
	ID       uint64
	Key      string
	Argument json.RawMessage
}

// CheckItemResult is the verdict on one CheckItem; Error is empty when the
// argument is acceptable.
type CheckItemResult struct {
	ID    uint64
	Error string
}

// ScoreItem is one grading request sent by the host.
type ScoreItem struct {
	ID       uint64
	Key      string
	Config   []byte
	Envelope []byte
}

// ScoreItemResult is a scorer's answer to one ScoreItem.
type ScoreItemResult struct {
	contract.ScoreResult
	ID        uint64
	Error     string
	ErrorKind ErrorKind
}

// RenderStart opens a render stream.
type RenderStart struct {
	Key              string
	Options          json.RawMessage
	Terminal         contract.Terminal
	ProgressTerminal contract.Terminal
}

// Sink names where the host sends bytes a reporter wrote.
type Sink int

// The sinks.
const (
	SinkPrimary     Sink = Sink(pluginv1.Sink_SINK_PRIMARY)
	SinkProgress    Sink = Sink(pluginv1.Sink_SINK_PROGRESS)
	SinkStepSummary Sink = Sink(pluginv1.Sink_SINK_STEP_SUMMARY)
)

// PackedMinor is the protocol minor version from which plugins understand
// packed Match batches.
const PackedMinor = 1
