package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// conn serves the plugin in-process over real gRPC for one test.
func conn(t *testing.T) *plugintest.MatcherHarness {
	t.Helper()
	return plugintest.Matcher(t, newPlugin())
}

// run is one snapshot assertion as the host would send it.
type run struct {
	dir    string // the suite directory
	arg    string // the matcher argument, JSON
	actual string // the value, JSON
	update bool   // --update-snapshots
}

// match sends one assertion and returns its result.
func match(t *testing.T, c *plugintest.MatcherHarness, r run) plugintest.MatchItemResult {
	t.Helper()
	return c.MatchItem(plugintest.MatchItem{
		Key: matcherKey, Actual: json.RawMessage(r.actual), Argument: json.RawMessage(r.arg),
		Options: sdk.MatchOptions{TestName: "t", SuiteDir: r.dir, SuiteFile: filepath.Join(r.dir, "suite.yml"), UpdateSnapshots: r.update},
	})
}

// readFile returns a snapshot file's contents, failing the test if absent.
func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "snapshots", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("read snapshot: %v", err)
	}
	return string(b)
}
