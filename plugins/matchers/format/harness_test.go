package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// conn serves the plugin in-process over real gRPC for one test.
func conn(t *testing.T) *plugintest.Conn {
	t.Helper()
	return plugintest.New(t, newPlugin(), nil)
}

// str encodes s as a JSON string, the way the host sends extracted text.
func str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// match sends one item and returns its result.
func match(t *testing.T, c *plugintest.Conn, key, actual, arg string) sdk.MatchItemResult {
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

// check validates one argument and returns the error text ("" if valid).
func check(t *testing.T, c *plugintest.Conn, key, arg string) string {
	t.Helper()
	res, err := c.Matcher.Check(context.Background(), []sdk.CheckItem{{ID: 3, Key: key, Argument: json.RawMessage(arg)}})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d check results, want 1", len(res))
	}
	return res[0].Error
}

// tcase is one row of a matcher table. For a failing row, want maps a
// failure field to text it must contain (the decoded text of a string
// field, the JSON of any other), and absent lists fields that must not be
// there.
type tcase struct {
	name, key, actual, arg string
	pass                   bool
	want                   map[string]string
	absent                 []string
}

// run runs a table against one connection.
func run(t *testing.T, cases []tcase) {
	t.Helper()
	c := conn(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := match(t, c, tc.key, tc.actual, tc.arg)
			if r.Error != "" {
				t.Fatalf("unexpected error (%s): %s", r.ErrorKind, r.Error)
			}
			if r.Pass != tc.pass {
				t.Fatalf("pass = %v, want %v; failure %s", r.Pass, tc.pass, r.Failure)
			}
			if tc.pass {
				return
			}
			fields := failureFields(t, r.Failure)
			for field, want := range tc.want {
				got, ok := fields[field]
				if !ok {
					t.Errorf("failure has no %q: %s", field, r.Failure)
					continue
				}
				text := string(got)
				var s string
				if json.Unmarshal(got, &s) == nil {
					text = s
				}
				if !strings.Contains(text, want) {
					t.Errorf("failure %q = %q, want it to contain %q", field, text, want)
				}
			}
			for _, field := range tc.absent {
				if got, ok := fields[field]; ok {
					t.Errorf("failure has %q = %s, want none", field, got)
				}
			}
		})
	}
}

// failureFields decodes a failure into its top-level fields.
func failureFields(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("failure is not a JSON object: %v: %s", err, raw)
	}
	return m
}
