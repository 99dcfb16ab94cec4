// Package contract holds the Go types of the plugin contract: what a plugin
// implements (Matcher, Reporter, Provider, Scorer), what it receives and
// returns (MatchInput, MatchResult, Failure, RenderSession, ChatRequest,
// ScoreInput, ...), how it describes itself (Plugin, Description) and the
// protocol constants.
//
// Plugin authors use these types through package sdk, which re-exports each
// of them under the same name; this package exists so that sdk (which
// serves a plugin) and sdk/pluginrpc (which carries the types over gRPC)
// can both depend on the types without depending on each other. It has no
// transport: it imports only the standard library and sdk/report.
package contract
