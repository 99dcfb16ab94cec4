package run

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
)

func TestRunErrorsAreListedInAStableOrder(t *testing.T) {
	r := &runner{opts: Options{Redact: report.NewRedactor(nil)}, pluginErrs: map[string]*plugin.PluginError{}}
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
