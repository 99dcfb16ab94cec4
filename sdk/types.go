package sdk

import (
	"context"
	"encoding/json"
	"io"

	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/report"
)

// The author types are defined in package contract, which both this package
// and sdk/pluginrpc import (see the package documentation for why); these
// aliases make them the sdk's own. Each is documented in full there.

// Plugin describes everything one plugin binary serves.
type Plugin = contract.Plugin

// Component is one kind of component a plugin serves, with its keys.
type Component = contract.Component

// Description is a plugin's self-description: what `describe` prints and
// what the Describe RPC returns.
type Description = contract.Description

// Matcher judges one extracted value against a matcher argument; it must be
// safe for concurrent use.
type Matcher = contract.Matcher

// ArgumentChecker is implemented by matchers that can reject a bad argument
// before the run starts.
type ArgumentChecker = contract.ArgumentChecker

// MatcherFunc adapts a function to the Matcher interface.
type MatcherFunc = contract.MatcherFunc

// MatchInput is one assertion to judge.
type MatchInput = contract.MatchInput

// MatchOptions is the per-assertion context the host sends with each item.
type MatchOptions = contract.MatchOptions

// MatchResult is the verdict on one item.
type MatchResult = contract.MatchResult

// Failure is a structured failure of a match.
type Failure = contract.Failure

// Reporter renders a run.
type Reporter = contract.Reporter

// ReporterFunc adapts a function to the Reporter interface.
type ReporterFunc = contract.ReporterFunc

// RenderSession is one run as seen by a reporter.
type RenderSession = contract.RenderSession

// Terminal describes where a reporter's output goes.
type Terminal = contract.Terminal

// Provider reaches a language model; it must be safe for concurrent use.
type Provider = contract.Provider

// ChatRequest is a chat completion request in mcptest's provider-neutral
// shape.
type ChatRequest = contract.ChatRequest

// Message is one chat turn.
type Message = contract.Message

// ToolDef is a tool offered to the model.
type ToolDef = contract.ToolDef

// ToolCall is a tool invocation requested by the model.
type ToolCall = contract.ToolCall

// Part is one content block of a message (text, structured JSON, image).
type Part = contract.Part

// ChatResponse is the model's reply.
type ChatResponse = contract.ChatResponse

// Seat places a plugin's model request (its juror and trial) for the
// host's verdict cache.
type Seat = contract.Seat

// Usage is what a model call consumed.
type Usage = contract.Usage

// EmbedRequest asks for one embedding per input.
type EmbedRequest = contract.EmbedRequest

// EmbedResponse holds one vector per input, in order.
type EmbedResponse = contract.EmbedResponse

// Endpoint is where and with which credentials a provider reaches its
// model for one call; read it with EndpointFrom.
type Endpoint = contract.Endpoint

// ModelPrice is one row of a provider plugin's price table.
type ModelPrice = contract.ModelPrice

// Scorer is an external grader.
type Scorer = contract.Scorer

// ScoreInput is one item to grade.
type ScoreInput = contract.ScoreInput

// ScoreResult is a grader's verdict.
type ScoreResult = contract.ScoreResult

// Host is mcptest itself, as seen from a plugin: it routes model calls to
// the provider plugin that owns the model.
type Host = contract.Host

// The protocol and SDK versions and limits a plugin reports.
const (
	// ProtocolVersion is the major plugin protocol version.
	ProtocolVersion = contract.ProtocolVersion
	// ProtocolMinor counts additive changes to the protocol version.
	ProtocolMinor = contract.ProtocolMinor
	// Version is the SDK's own version.
	Version = contract.Version
	// MaxMessageBytes is the gRPC message size limit both sides use.
	MaxMessageBytes = contract.MaxMessageBytes
	// FailureValueLimit bounds each of Failure.Expected, Actual and Diff
	// as a plugin sends them; longer values are cut with a marker.
	FailureValueLimit = contract.FailureValueLimit
	// CapabilityFinalOnly, followed by a report format, declares a
	// reporter that reads only the run_finished event.
	CapabilityFinalOnly = contract.CapabilityFinalOnly
	// CapabilityCanonical, followed by a report format, declares a
	// reporter that writes the canonical report document and nothing
	// else (CanonicalReporter), which a host may write itself.
	CapabilityCanonical = contract.CapabilityCanonical
	// CapabilityVetPure declares that the plugin's CheckArgument verdicts
	// depend on the key and the argument alone, so the host may remember
	// them across runs.
	CapabilityVetPure = contract.CapabilityVetPure
	// CapabilityNoHost declares that the plugin never calls its Host, so
	// the host need not serve one to it.
	CapabilityNoHost = contract.CapabilityNoHost
	// CapabilityReflexive, followed by a matcher key, declares that an
	// actual value byte-identical to a valid argument passes that key, so
	// the host need not start the plugin to judge it (Reflexive).
	CapabilityReflexive = contract.CapabilityReflexive
)

// The component kinds.
const (
	KindMatcher  = contract.KindMatcher
	KindReporter = contract.KindReporter
	KindProvider = contract.KindProvider
	KindScorer   = contract.KindScorer
)

// The kinds of a message Part.
const (
	PartText  = contract.PartText
	PartJSON  = contract.PartJSON
	PartImage = contract.PartImage
)

// The stop reasons of a ChatResponse, the same for every vendor.
const (
	StopEndTurn       = contract.StopEndTurn
	StopToolUse       = contract.StopToolUse
	StopMaxTokens     = contract.StopMaxTokens
	StopSequence      = contract.StopSequence
	StopContentFilter = contract.StopContentFilter
	StopOther         = contract.StopOther
)

// Kinds lists the component kinds in a fixed order.
var Kinds = contract.Kinds

// The sentinel errors of the contract; errors.Is matches them across the
// sdk and contract names, which are the same values.
var (
	// ErrInvalidArgument marks an error as a suite bug, not a failed
	// assertion: the run exits 2.
	ErrInvalidArgument = contract.ErrInvalidArgument
	// ErrNoHost is returned by Host methods when the host offers no Host
	// service.
	ErrNoHost = contract.ErrNoHost
	// ErrNoRunFinished is returned by a FinalReporter whose event stream
	// ended without a run_finished event.
	ErrNoRunFinished = contract.ErrNoRunFinished
	// ErrNoModelKey is matched by the error of a Host call whose model has
	// no key in mcptest's environment; report the item deferred.
	ErrNoModelKey = contract.ErrNoModelKey
	// ErrCostCap is matched by the error of a Host call the run's
	// --max-cost budget refused; nothing was sent. Error the item.
	ErrCostCap = contract.ErrCostCap
)

// Pass returns a passing result.
func Pass() MatchResult { return contract.Pass() }

// Fail returns a failing result with the given failure.
func Fail(f Failure) MatchResult { return contract.Fail(f) }

// Defer returns a deferred result: the item was not judged because a
// model it needs has no key, and reason names the variable to set.
func Defer(reason string) MatchResult { return contract.Defer(reason) }

// JSON encodes v for use in Failure.Expected or Failure.Actual; a value that
// cannot be encoded becomes its fmt representation as a JSON string.
func JSON(v any) json.RawMessage { return contract.JSON(v) }

// Reflexive returns the capability that declares the matcher key
// reflexive (CapabilityReflexive), for Plugin.Capabilities: an actual value
// whose JSON is byte for byte a valid argument's passes.
func Reflexive(key string) string { return contract.Reflexive(key) }

// InvalidArgument returns an error for which errors.Is(err,
// ErrInvalidArgument) holds; format may use %w to wrap a cause too.
func InvalidArgument(format string, args ...any) error {
	return contract.InvalidArgument(format, args...)
}

// FinalReporter adapts a function that only needs the complete report: it
// is called once with the run_finished report, and the plugin declares
// CapabilityFinalOnly for its format.
func FinalReporter(fn func(ctx context.Context, s *RenderSession, run *report.Run) error) Reporter {
	return contract.FinalReporter(fn)
}

// CanonicalReporter is the reporter of the canonical report document
// (report.WriteCanonical of the run_finished report, nothing else): the
// bundled json reporter. The plugin declares CapabilityFinalOnly and
// CapabilityCanonical for its format, and mcptest may then write the
// document itself without starting the plugin.
func CanonicalReporter() Reporter { return contract.CanonicalReporter() }

// NewRenderSession builds a session over an event source, for tests and for
// reporters used in-process; next returns false when the events end.
func NewRenderSession(key string, next func() (report.Event, bool), primary, progress, stepSummary io.Writer) *RenderSession {
	return contract.NewRenderSession(key, next, primary, progress, stepSummary)
}

// WithEndpoint returns ctx carrying ep for a provider's Complete or Embed.
func WithEndpoint(ctx context.Context, ep Endpoint) context.Context {
	return contract.WithEndpoint(ctx, ep)
}

// EndpointFrom returns the endpoint the host sent with the current call;
// ok is false when it sent none (the provider then uses its defaults).
func EndpointFrom(ctx context.Context) (ep Endpoint, ok bool) { return contract.EndpointFrom(ctx) }

// LookupPrice finds the row pricing model: an exact id wins, then the
// longest matching prefix; ok is false when no row matches.
func LookupPrice(table []ModelPrice, model string) (price ModelPrice, ok bool) {
	return contract.LookupPrice(table, model)
}
