package plugintest

import "github.com/mcptest/mcptest/sdk/pluginrpc"

// The wire items a test sends and receives through a Conn, named here so a
// plugin's tests need only sdk and plugintest: they are the host-side types
// of sdk/pluginrpc, which is not author API.

// MatchItem is one assertion as the host sends it to a matcher.
type MatchItem = pluginrpc.MatchItem

// MatchItemResult is a plugin's verdict on one MatchItem, as the host
// receives it: the failure as JSON, or an error with its kind.
type MatchItemResult = pluginrpc.MatchItemResult

// CheckItem is one matcher argument to check before a run.
type CheckItem = pluginrpc.CheckItem

// ErrorKind classifies the error of a MatchItemResult.
type ErrorKind = pluginrpc.ErrorKind

// The error kinds of a MatchItemResult.
const (
	ErrorKindNone            = pluginrpc.ErrorKindNone
	ErrorKindInternal        = pluginrpc.ErrorKindInternal
	ErrorKindInvalidArgument = pluginrpc.ErrorKindInvalidArgument
	ErrorKindPanic           = pluginrpc.ErrorKindPanic
)

// ScoreItem is one grading request as the host sends it to a scorer.
type ScoreItem = pluginrpc.ScoreItem

// ScoreItemResult is a scorer's answer to one ScoreItem.
type ScoreItemResult = pluginrpc.ScoreItemResult

// RenderStart opens a render: the format, its options and the terminals.
type RenderStart = pluginrpc.RenderStart

// Sink names where the host sends bytes a reporter wrote.
type Sink = pluginrpc.Sink

// The sinks of a render.
const (
	SinkPrimary     = pluginrpc.SinkPrimary
	SinkProgress    = pluginrpc.SinkProgress
	SinkStepSummary = pluginrpc.SinkStepSummary
)
