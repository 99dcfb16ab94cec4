package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/plugintest"
)

// serve starts the plugin in-process over real gRPC.
func serve(t *testing.T) *plugintest.MatcherHarness {
	t.Helper()
	return plugintest.Matcher(t, newPlugin())
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
	h := serve(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := h.For(t)
			r := h.Match(tc.key, tc.actual, tc.arg)
			if tc.pass {
				h.MustPass(r)
				return
			}
			assertFailure(t, h, r, tc)
		})
	}
}

// assertFailure checks r is a failure with the fields tc asks for.
func assertFailure(t *testing.T, h *plugintest.MatcherHarness, r plugintest.MatchItemResult, tc matchCase) {
	t.Helper()
	got := h.Failure(r)
	for field, want := range tc.fields {
		v, ok := got[field]
		if !ok {
			t.Errorf("failure has no %q field: %s", field, r.Failure)
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
		if s := h.Text(got[field]); !strings.Contains(s, want) {
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
