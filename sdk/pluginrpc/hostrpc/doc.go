// Package hostrpc is the host's side of the plugin protocol: the clients
// of a plugin's services (InfoClient, MatcherClient, ReporterClient,
// ProviderClient, ScorerClient), the go-plugin plugin set and dial options
// the host connects with, and the Host service it offers plugins over the
// go-plugin broker. mcptest's core/plugin and sdk/plugintest use it; a
// plugin binary never links it, which TestAuthorPackageNeedsOnlyWhatServeNeeds
// in package sdk checks.
//
// Like sdk/pluginrpc, whose wire items and codecs it uses, it is not author
// API and carries no compatibility promise.
package hostrpc
