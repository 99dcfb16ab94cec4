package config

import "encoding/json"

// Elicitation actions of a client mock.
const (
	ElicitAccept         = "accept"
	ElicitAcceptDefaults = "accept_defaults"
	ElicitDecline        = "decline"
	ElicitCancel         = "cancel"
)

// LogLevels are the levels logging/setLevel takes (RFC 5424 severities),
// most verbose first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Defaults of a resource test's subscribe block.
const (
	DefaultSubscribeWaitMS     = 5000
	DefaultSubscribeMinUpdates = 1
)

// ClientMocks is the client block of a server or a tool test: the client
// features mcptest offers the server, each answered with canned data.
// Every feature set on a server, or on any tool test of that server, is
// declared in initialize; a test's block overrides its server's, feature
// by feature, for the requests that arrive during the test.
type ClientMocks struct {
	// Roots is the roots list roots/list answers with; nil when roots is
	// unset (an empty list offers the feature with no roots).
	Roots []*Root
	// Sampling is the canned answer to sampling/createMessage; nil when
	// unset.
	Sampling *SamplingMock
	// Elicitation is the canned answer to elicitation/create; nil when
	// unset.
	Elicitation *ElicitationMock
	// Pos is the position of the client key.
	Pos Pos
}

// Root is one entry of a client block's roots list.
type Root struct {
	// URI identifies the root, such as file:///tmp/work.
	URI string
	// Name is an optional display name; "" when unset.
	Name string
	// Pos is the position of the entry.
	Pos Pos
}

// SamplingMock is a canned sampling/createMessage answer: an assistant
// message with one text block.
type SamplingMock struct {
	// Text is the message's text.
	Text string
	// Model names the model said to answer; "" for mcptest's default.
	Model string
	// StopReason is the stopReason; "" for endTurn.
	StopReason string
	// Pos is the position of the sampling key.
	Pos Pos
}

// ElicitationMock is a canned elicitation/create answer.
type ElicitationMock struct {
	// Action is ElicitAccept, ElicitAcceptDefaults, ElicitDecline or
	// ElicitCancel.
	Action string
	// Content is the accepted content, a JSON object; nil when unset
	// (only accept and accept_defaults take it).
	Content json.RawMessage
	// Pos is the position of the elicitation key.
	Pos Pos
}

// Subscribe is a resource test's subscribe block: subscribe to the URI,
// optionally call a tool that should change it, wait for update
// notifications, then read it and unsubscribe.
type Subscribe struct {
	// Trigger is the tool call made after subscribing; nil for none.
	Trigger *Trigger
	// WaitMS bounds the wait for the updates, in milliseconds
	// (DefaultSubscribeWaitMS when unset).
	WaitMS int
	// MinUpdates is how many notifications/resources/updated for the URI
	// the test waits for (DefaultSubscribeMinUpdates when unset).
	MinUpdates int
	// Pos is the position of the subscribe key.
	Pos Pos
}

// Trigger is the tool call of a subscribe block.
type Trigger struct {
	// Tool is the tool to call.
	Tool string
	// Args are its arguments, a JSON object ("{}" when unset).
	Args json.RawMessage
	// Pos is the position of the trigger key.
	Pos Pos
}
