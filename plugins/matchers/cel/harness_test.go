package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin with its documented budget in-process over real
// gRPC.
func serve(t *testing.T) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), nil)
}

// expr encodes a CEL expression as the matcher argument.
func expr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// matchOne sends one item and returns its result.
func matchOne(t *testing.T, c *plugintest.Conn, actual, arg string) sdk.MatchItemResult {
	t.Helper()
	res, err := c.Matcher.Match(context.Background(), []sdk.MatchItem{{
		ID: 1, Key: matcherKey, Actual: json.RawMessage(actual), Argument: json.RawMessage(arg),
	}})
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d results, want 1", len(res))
	}
	return res[0]
}

// checkOne validates one argument of key and returns the error text ("" if
// it was accepted).
func checkOne(t *testing.T, c *plugintest.Conn, key, arg string) string {
	t.Helper()
	res, err := c.Matcher.Check(context.Background(), []sdk.CheckItem{{ID: 7, Key: key, Argument: json.RawMessage(arg)}})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if len(res) != 1 || res[0].ID != 7 {
		t.Fatalf("unexpected check results %+v", res)
	}
	return res[0].Error
}

// mustInvalid asserts r is a suite-bug error containing want.
func mustInvalid(t *testing.T, r sdk.MatchItemResult, want string) {
	t.Helper()
	if r.ErrorKind != sdk.ErrorKindInvalidArgument {
		t.Fatalf("error kind %s (%q), want invalid_argument", r.ErrorKind, r.Error)
	}
	if !strings.HasPrefix(r.Error, "invalid matcher argument: cel: ") || !strings.Contains(r.Error, want) {
		t.Fatalf("error %q, want it to contain %q", r.Error, want)
	}
}

// failure is the decoded failure of a cel match.
type failure struct {
	Expected string          `json:"expected"`
	Actual   json.RawMessage `json:"actual"`
	Note     string          `json:"note"`
}

// mustFail asserts r is a failed match and decodes its failure.
func mustFail(t *testing.T, r sdk.MatchItemResult) failure {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("unexpected error (%s): %s", r.ErrorKind, r.Error)
	}
	if r.Pass {
		t.Fatal("passed, want a failure")
	}
	var f failure
	dec := json.NewDecoder(strings.NewReader(string(r.Failure)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("failure %s: %v", r.Failure, err)
	}
	return f
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
