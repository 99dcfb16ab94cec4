package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// TestDescribeTerminal: NO_COLOR disables colour only when non-empty
// (no-color.org), and TERM=dumb gets neither colour nor the live counter
// that rewrites its line with cursor escapes.
func TestDescribeTerminal(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tty     bool
		noColor bool
		env     map[string]string
		want    sdk.Terminal
	}{
		{"terminal", true, false, map[string]string{"TERM": "xterm", "COLUMNS": "120"}, sdk.Terminal{IsTTY: true, Color: true, Width: 120}},
		{"pipe", false, false, map[string]string{"TERM": "xterm"}, sdk.Terminal{}},
		{"NO_COLOR set", true, false, map[string]string{"NO_COLOR": "1"}, sdk.Terminal{IsTTY: true}},
		{"NO_COLOR empty", true, false, map[string]string{"NO_COLOR": ""}, sdk.Terminal{IsTTY: true, Color: true}},
		{"--no-color", true, true, nil, sdk.Terminal{IsTTY: true}},
		{"TERM=dumb", true, false, map[string]string{"TERM": "dumb", "COLUMNS": "80"}, sdk.Terminal{}},
	} {
		got := describeTerminal(tc.tty, tc.noColor, func(k string) string { return tc.env[k] })
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
