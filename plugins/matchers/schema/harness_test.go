package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin with its documented limits in-process over real
// gRPC.
func serve(t *testing.T) *plugintest.MatcherHarness {
	t.Helper()
	return plugintest.Matcher(t, newPlugin())
}

// serveWith starts the plugin with the given limits and also returns its
// matcher, so a test can look inside the cache.
func serveWith(t *testing.T, l limits) (*plugintest.MatcherHarness, *matcher) {
	t.Helper()
	p := pluginWith(l)
	return plugintest.Matcher(t, p), p.Matchers[matcherKey].(*matcher)
}

// schemaError is one entry of a failure's "errors" list, as the host
// receives it.
type schemaError struct {
	InstancePath string `json:"instance_path"`
	SchemaPath   string `json:"schema_path"`
	Message      string `json:"message"`
}

// failure is the decoded failure of a schema match.
type failure struct {
	Errors []schemaError `json:"errors"`
	Total  int           `json:"errors_total"`
	Note   string        `json:"note"`
}
