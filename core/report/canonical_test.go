package report

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// The canonical document mcptest writes itself is the one
// sdk.CanonicalReporter writes in its plugin: the event decoded as the SDK
// decodes it, the first run_finished written by report.WriteCanonical;
// without one it fails as the plugin does.
func TestCanonicalRenderWritesWhatThePluginWrites(t *testing.T) {
	run := reporttest.Evals()
	final, err := json.Marshal(rpt.Event{Type: rpt.EventRunFinished, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	started, _ := json.Marshal(rpt.Event{Type: rpt.EventRunStarted})
	var got []byte
	c := &canonicalRender{write: func(b []byte) { got = append(got, b...) }}
	for _, b := range [][]byte{started, final} {
		if err := c.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// What the plugin does with the same bytes: decode, then render.
	var ev rpt.Event
	if err := json.Unmarshal(final, &ev); err != nil {
		t.Fatal(err)
	}
	var want jsonBuffer
	if err := rpt.WriteCanonical(&want, ev.Run); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || len(got) == 0 {
		t.Fatalf("mcptest wrote\n%s\nthe plugin writes\n%s", got, want)
	}

	none := &canonicalRender{write: func([]byte) { t.Error("wrote without run_finished") }}
	_ = none.Send(started)
	if err := none.Close(); !errors.Is(err, sdk.ErrNoRunFinished) {
		t.Fatalf("Close without run_finished = %v", err)
	}
}

// jsonBuffer collects written bytes.
type jsonBuffer []byte

func (b *jsonBuffer) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }
