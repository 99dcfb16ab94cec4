package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin with its documented limits in-process over real
// gRPC.
func serve(t *testing.T) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), nil)
}

// serveWith starts the plugin with the given limits and also returns its
// matcher, so a test can look inside the cache.
func serveWith(t *testing.T, l limits) (*plugintest.Conn, *matcher) {
	t.Helper()
	p := pluginWith(l)
	return plugintest.New(t, p, nil), p.Matchers[matcherKey].(*matcher)
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

// failure is the decoded failure of a schema match.
type failure struct {
	Errors []schemaError `json:"errors"`
	Total  int           `json:"errors_total"`
	Note   string        `json:"note"`
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

// mustInvalid asserts r is a suite-bug error containing want.
func mustInvalid(t *testing.T, r sdk.MatchItemResult, want string) {
	t.Helper()
	if r.ErrorKind != sdk.ErrorKindInvalidArgument {
		t.Fatalf("error kind %s (%q), want invalid_argument", r.ErrorKind, r.Error)
	}
	if !strings.Contains(r.Error, want) {
		t.Fatalf("error %q, want it to contain %q", r.Error, want)
	}
}

// nested returns a schema nested depth levels deep: depth-1 "items"
// objects around an empty one.
func nested(depth int) string {
	return strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
}

// explosion returns a schema whose evaluation doubles with every level:
// each definition is an anyOf of two references to the next, and
// unevaluatedProperties makes the validator try every branch even after one
// matched (it must learn which properties each branch evaluated). Against
// an object with a property it needs 2^levels steps; no branch fails, so
// no error tree builds up in memory while it runs.
func explosion(levels int) string {
	var defs []string
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, levels))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0","unevaluatedProperties":true}`
}
