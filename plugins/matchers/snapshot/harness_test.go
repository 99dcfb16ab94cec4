package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// conn serves the plugin in-process over real gRPC for one test.
func conn(t *testing.T) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), nil)
}

// run is one snapshot assertion as the host would send it.
type run struct {
	dir    string // the suite directory
	arg    string // the matcher argument, JSON
	actual string // the value, JSON
	update bool   // --update-snapshots
}

// match sends one assertion and returns its result.
func match(t *testing.T, c *plugintest.Conn, r run) sdk.MatchItemResult {
	t.Helper()
	res, err := c.Matcher.Match(context.Background(), []sdk.MatchItem{{
		ID: 1, Key: "snapshot", Actual: json.RawMessage(r.actual), Argument: json.RawMessage(r.arg),
		Options: sdk.MatchOptions{TestName: "t", SuiteDir: r.dir, SuiteFile: filepath.Join(r.dir, "suite.yml"), UpdateSnapshots: r.update},
	}})
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d results, want 1", len(res))
	}
	return res[0]
}

// mustPass fails the test unless r passed.
func mustPass(t *testing.T, r sdk.MatchItemResult) {
	t.Helper()
	if r.Error != "" || !r.Pass {
		t.Fatalf("want a pass, got pass=%v error=%q failure=%s", r.Pass, r.Error, r.Failure)
	}
}

// mustFail fails the test unless r failed, and returns the failure fields.
func mustFail(t *testing.T, r sdk.MatchItemResult) map[string]json.RawMessage {
	t.Helper()
	if r.Error != "" || r.Pass {
		t.Fatalf("want a failure, got pass=%v error=%q", r.Pass, r.Error)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Failure, &m); err != nil {
		t.Fatalf("failure is not a JSON object: %v: %s", err, r.Failure)
	}
	return m
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

// check validates one argument and returns the error text ("" if valid).
func check(t *testing.T, c *plugintest.Conn, arg string) string {
	t.Helper()
	res, err := c.Matcher.Check(context.Background(), []sdk.CheckItem{{ID: 5, Key: "snapshot", Argument: json.RawMessage(arg)}})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d check results", len(res))
	}
	return res[0].Error
}

// text decodes a JSON string field.
func text(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("not a JSON string: %s", raw)
	}
	return s
}
