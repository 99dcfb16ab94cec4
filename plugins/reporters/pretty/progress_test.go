package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func TestProgressOnlyOnATerminal(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	tty := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty", ProgressTerminal: sdk.Terminal{IsTTY: true}}, reporttest.Events())
	if tty.Err != nil {
		t.Fatal(tty.Err)
	}
	for _, want := range []string{"running: 1/8", "running: 8/8, 2 failed, 1 warned, 1 errored", "\r\x1b[K"} {
		if !strings.Contains(tty.Progress, want) {
			t.Errorf("progress lacks %q: %q", want, tty.Progress)
		}
	}
	if !strings.HasSuffix(tty.Progress, "\r\x1b[K") {
		t.Errorf("the counter is not cleared at the end: %q", tty.Progress)
	}
	pipe := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty"}, reporttest.Events())
	if pipe.Progress != "" {
		t.Errorf("progress written to a non-terminal: %q", pipe.Progress)
	}
	if pipe.Primary != tty.Primary {
		t.Errorf("the report itself must not depend on stderr being a terminal")
	}
}

func TestFailedTestsShowTheWire(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty"}, reporttest.Events())
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	for _, want := range []string{"wire:", `→ {"jsonrpc":"2.0","id":1000001,"method":"tools/call"`, `← {"jsonrpc":"2.0","id":1000001,"result"`} {
		if !strings.Contains(out.Primary, want) {
			t.Errorf("output lacks %q:\n%s", want, out.Primary)
		}
	}
	if strings.ContainsRune(out.Primary, 0x1b) {
		t.Errorf("escape sequence reached the plain output")
	}
}
