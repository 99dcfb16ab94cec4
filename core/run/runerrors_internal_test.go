package run

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
)

func TestRunErrorsAreListedInAStableOrder(t *testing.T) {
	r := &runner{opts: Options{Redact: redact.New()}, pluginErrs: map[string]*plugin.PluginError{}}
	// Noted in an order unlike the sorted one, as finishing tests would.
	for _, name := range []string{"m", "c", "x", "a", "q", "f", "z", "b", "k", "d"} {
		r.notePluginError(fmt.Errorf("call: %w", &plugin.PluginError{Plugin: name, Version: "1.0.0", Err: errors.New("crashed")}))
	}
	want := "a b c d f k m q x z"
	for range 20 {
		got := ""
		for i, e := range r.runErrors() {
			if i > 0 {
				got += " "
			}
			got += e.Name[:1]
		}
		if got != want {
			t.Fatalf("run errors in order %q, want %q", got, want)
		}
	}
}

func TestRunErrorsKeepTheFailureThatEndedAPlugin(t *testing.T) {
	r := &runner{opts: Options{Redact: redact.New()}, pluginErrs: map[string]*plugin.PluginError{}}
	note := func(msg string, final bool) {
		r.notePluginError(&plugin.PluginError{Plugin: "chaos", Version: "1.0.0", Err: errors.New(msg), Final: final})
	}
	note("hung on test a; it is started again", false)
	note("hung on test b", false)
	note("stopped after it hung on test c", true)
	note("stopped after it hung on test c", true)
	var got []string
	for _, e := range r.runErrors() {
		got = append(got, e.Message)
	}
	want := []string{"hung on test a; it is started again", "stopped after it hung on test c"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("run errors %q, want %q", got, want)
	}
}
