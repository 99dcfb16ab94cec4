package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func TestProgressOnlyOnATerminal(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	tty := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty", ProgressTerminal: sdk.Terminal{IsTTY: true, Color: true}}, reporttest.Events())
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

// timedEvents spaces the sample's tests ten seconds apart: each starts
// five seconds after the one before finished.
func timedEvents() []report.Event {
	evs := reporttest.Events()
	start := evs[0].Time
	n := 0
	for i := range evs {
		switch evs[i].Type {
		case report.EventTestStarted:
			evs[i].Time = start.Add(time.Duration(n)*10*time.Second + 5*time.Second)
		case report.EventTestFinished:
			n++
			evs[i].Time = start.Add(time.Duration(n) * 10 * time.Second)
		}
	}
	return evs
}

func TestProgressShowsElapsedAndETA(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty", ProgressTerminal: sdk.Terminal{IsTTY: true, Color: true}}, timedEvents())
	for _, want := range []string{"running: 1/8 · 0:10 elapsed, ~1:10 left", "running: 1/8 · 0:15 elapsed, ~1:45 left", "running: 4/8, 1 failed, 1 errored · 0:40 elapsed, ~0:40 left", "1 errored · 1:20 elapsed\r"} {
		if !strings.Contains(out.Progress, want) {
			t.Errorf("progress lacks %q: %q", want, out.Progress)
		}
	}
	// Every redraw starts by erasing the line, so no two counters or a
	// counter and a test line ever share a row.
	for _, frame := range strings.Split(out.Progress, "\r\x1b[K")[1:] {
		if strings.ContainsAny(frame, "\r\n") {
			t.Errorf("a frame holds a line break: %q", frame)
		}
	}
	narrow := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty", ProgressTerminal: sdk.Terminal{IsTTY: true, Color: true, Width: 20}}, timedEvents())
	for _, frame := range strings.Split(narrow.Progress, "\r\x1b[K")[1:] {
		if len([]rune(frame)) > 19 {
			t.Errorf("a frame wider than the terminal: %q", frame)
		}
	}
	// No colour (NO_COLOR, --no-color): no live line, even on a terminal.
	plain := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty", ProgressTerminal: sdk.Terminal{IsTTY: true}}, timedEvents())
	if plain.Progress != "" {
		t.Errorf("progress drawn without colour: %q", plain.Progress)
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

// Tests fail-fast kept from starting are summed up in one line, not
// listed one by one.
func TestFailFastSkipsAreSummedUp(t *testing.T) {
	evs := reporttest.Events()
	for i := range evs {
		if evs[i].Type == report.EventTestFinished && evs[i].Test.Status == report.StatusSkipped {
			evs[i].Test.Error = &report.Error{Kind: report.ErrorKindFailFast, Message: "not started: the run stopped after the first failure (--fail-fast)"}
		}
	}
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "pretty"}, evs)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if strings.Contains(out.Primary, "not reached") {
		t.Errorf("a test fail-fast skipped is listed:\n%s", out.Primary)
	}
	if !strings.Contains(out.Primary, "1 test(s) not started: the run stopped after the first failure (--fail-fast)") {
		t.Errorf("no summary of the tests not started:\n%s", out.Primary)
	}
}
