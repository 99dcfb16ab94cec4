package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// conn serves the plugin in-process over real gRPC for one test.
func conn(t *testing.T) *plugintest.MatcherHarness {
	t.Helper()
	return plugintest.Matcher(t, newPlugin())
}

// str encodes s as a JSON string, the way the host sends extracted text.
func str(s string) string {
	return string(sdk.JSON(s))
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
			c := c.For(t)
			r := c.Match(tc.key, tc.actual, tc.arg)
			if tc.pass {
				c.MustPass(r)
				return
			}
			fields := c.Failure(r)
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
