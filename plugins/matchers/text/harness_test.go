package main

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin in-process over real gRPC.
func serve(t *testing.T) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), nil)
}

// matchOne sends one item and returns its result.
func matchOne(t *testing.T, c *plugintest.Conn, key, actual, arg string) sdk.MatchItemResult {
	t.Helper()
	res, err := c.Matcher.Match(context.Background(), []sdk.MatchItem{{
		ID: 1, Key: key, Actual: json.RawMessage(actual), Argument: json.RawMessage(arg),
	}})
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d results, want 1", len(res))
	}
	return res[0]
}

// checkOne validates one argument and returns the error text ("" if ok).
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

// matchCase is one row of a matcher table.
type matchCase struct {
	name   string
	key    string
	actual string
	arg    string
	pass   bool
	// fields are failure fields that must be present with these JSON values.
	fields map[string]string
	// absent are failure fields that must not be present.
	absent []string
	// substr maps failure fields to text their string value must contain.
	substr map[string]string
}

// runCases runs a table against one plugin connection.
func runCases(t *testing.T, cases []matchCase) {
	t.Helper()
	c := serve(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := matchOne(t, c, tc.key, tc.actual, tc.arg)
			if r.Error != "" {
				t.Fatalf("unexpected error (%s): %s", r.ErrorKind, r.Error)
			}
			if r.Pass != tc.pass {
				t.Fatalf("pass = %v, want %v (failure %s)", r.Pass, tc.pass, r.Failure)
			}
			if tc.pass {
				if len(r.Failure) != 0 {
					t.Errorf("passing result carries a failure: %s", r.Failure)
				}
				return
			}
			assertFailure(t, r.Failure, tc)
		})
	}
}

func assertFailure(t *testing.T, raw json.RawMessage, tc matchCase) {
	t.Helper()
	if len(raw) == 0 {
		t.Fatal("failing result has no failure")
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("failure is not a JSON object: %v: %s", err, raw)
	}
	for field, want := range tc.fields {
		v, ok := got[field]
		if !ok {
			t.Errorf("failure has no %q field: %s", field, raw)
			continue
		}
		if !jsonEqual(t, v, json.RawMessage(want)) {
			t.Errorf("failure %q = %s, want %s", field, v, want)
		}
	}
	for _, field := range tc.absent {
		if v, ok := got[field]; ok {
			t.Errorf("failure has %q = %s, want it absent", field, v)
		}
	}
	for field, want := range tc.substr {
		var s string
		if err := json.Unmarshal(got[field], &s); err != nil {
			t.Errorf("failure %q is not a string: %s", field, got[field])
			continue
		}
		if !strings.Contains(s, want) {
			t.Errorf("failure %q = %q, want it to contain %q", field, s, want)
		}
	}
}

// jsonEqual compares two JSON texts with the standard library decoder,
// independent of the plugin's own equality.
func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var av, bv any
	if err := json.Unmarshal(a, &av); err != nil {
		t.Fatalf("bad JSON %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &bv); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
	return reflect.DeepEqual(av, bv)
}
