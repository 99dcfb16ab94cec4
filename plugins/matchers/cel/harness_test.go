package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin with its documented budget in-process over real
// gRPC.
func serve(t *testing.T) *plugintest.MatcherHarness {
	t.Helper()
	return plugintest.Matcher(t, newPlugin())
}

// expr encodes a CEL expression as the matcher argument.
func expr(s string) string {
	return string(sdk.JSON(s))
}

// mustInvalid asserts r is a suite-bug error of this plugin containing
// want.
func mustInvalid(t *testing.T, h *plugintest.MatcherHarness, r plugintest.MatchItemResult, want string) {
	t.Helper()
	h.MustInvalid(r, want)
	if !strings.HasPrefix(r.Error, "invalid matcher argument: cel: ") {
		t.Fatalf("error %q, want it to start with the plugin's invalid-argument marker", r.Error)
	}
}

// failure is the decoded failure of a cel match.
type failure struct {
	Expected string          `json:"expected"`
	Actual   json.RawMessage `json:"actual"`
	Note     string          `json:"note"`
}

// numbers returns a JSON array of n numbers: a zero, then ones.
func numbers(n int) string {
	var b strings.Builder
	b.WriteString("[0")
	for i := 1; i < n; i++ {
		b.WriteString(",1")
	}
	b.WriteString("]")
	return b.String()
}
