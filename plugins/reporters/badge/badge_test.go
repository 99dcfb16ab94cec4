package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// namedColors are the colour names shields.io documents for badges: the
// named colours and their semantic aliases. The endpoint also takes CSS
// colours, but the plugin promises names.
var namedColors = map[string]bool{
	"brightgreen": true, "green": true, "yellowgreen": true, "yellow": true, "orange": true, "red": true,
	"blue": true, "lightgrey": true,
	"success": true, "important": true, "critical": true, "informational": true, "inactive": true,
}

// endpointFields are the properties of the endpoint schema.
var endpointFields = map[string]bool{
	"schemaVersion": true, "label": true, "message": true, "color": true, "labelColor": true, "isError": true,
	"namedLogo": true, "logoSvg": true, "logoColor": true, "logoWidth": true, "style": true, "cacheSeconds": true,
}

// renderBadge renders run through the plugin and checks the document the
// way shields.io reads it: schemaVersion is the number 1, label is a
// string, message a non-empty string, color a documented name, and
// nothing outside the endpoint schema.
func renderBadge(t *testing.T, events []report.Event) badge {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "badge"}, events)
	if got.Err != nil {
		t.Fatalf("render: %v", got.Err)
	}
	if !strings.HasSuffix(got.Primary, "}\n") || strings.Count(got.Primary, "\n") != 1 {
		t.Errorf("want one JSON document and a newline: %q", got.Primary)
	}
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(got.Primary))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for k := range doc {
		if !endpointFields[k] {
			t.Errorf("field %q is not in the endpoint schema", k)
		}
	}
	if n, ok := doc["schemaVersion"].(json.Number); !ok || n.String() != "1" {
		t.Errorf("schemaVersion = %#v, want the number 1", doc["schemaVersion"])
	}
	if _, ok := doc["label"].(string); !ok {
		t.Errorf("label = %#v, want a string", doc["label"])
	}
	if m, ok := doc["message"].(string); !ok || m == "" {
		t.Errorf("message = %#v, want a non-empty string", doc["message"])
	}
	if c, ok := doc["color"].(string); !ok || !namedColors[c] {
		t.Errorf("color = %#v, want a shields.io colour name", doc["color"])
	}
	var b badge
	if err := json.NewDecoder(bytes.NewReader([]byte(got.Primary))).Decode(&b); err != nil {
		t.Fatal(err)
	}
	return b
}

func finished(tests ...report.Status) []report.Event {
	run := &report.Run{RunID: "r"}
	for i, st := range tests {
		run.Tests = append(run.Tests, report.Test{ID: string(rune('a' + i)), Status: st})
	}
	run.Summarize()
	return []report.Event{{Type: report.EventRunFinished, Run: run}}
}

func TestBadgeRules(t *testing.T) {
	const (
		p = report.StatusPassed
		f = report.StatusFailed
		e = report.StatusErrored
		s = report.StatusSkipped
		w = report.StatusWarned
	)
	crashed := finished(p, p)
	crashed[0].Run.Errors = []report.RunError{{Source: "plugin", Message: "crashed"}}
	for _, tc := range []struct {
		name          string
		events        []report.Event
		message, want string
	}{
		{"all passed", finished(p, p, p, p, p), "5/5 passed", "brightgreen"},
		{"passed and skipped", finished(p, p, s), "2/2 passed, 1 skipped", "brightgreen"},
		{"failures", finished(p, f, f, f), "3 failed", "red"},
		{"errored", finished(p, e), "1 errored", "critical"},
		{"failed and errored", finished(f, f, e, p, s), "2 failed, 1 errored", "critical"},
		{"run error", crashed, "run error", "critical"},
		{"all skipped", finished(s, s), "2 skipped", "lightgrey"},
		{"nothing ran", finished(), "no tests", "lightgrey"},
		{"warning", finished(p, p, p, p, p, w), "5 passed, 1 warning", "yellow"},
		{"warnings and skips", finished(p, w, w, s), "1 passed, 2 warnings, 1 skipped", "yellow"},
		{"a warning and a failure", finished(p, w, f), "1 failed", "red"},
		{"sample", reporttest.Events(), "2 failed, 1 errored", "critical"},
		{"graded run with a flaky trial", rendertestFinished(reporttest.Evals()), "4 failed, 1 flaky", "red"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := renderBadge(t, tc.events)
			if b.Message != tc.message || b.Color != tc.want || b.Label != "mcptest" {
				t.Errorf("got %+v, want message %q colour %s", b, tc.message, tc.want)
			}
		})
	}
}

func rendertestFinished(run *report.Run) []report.Event {
	return []report.Event{{Type: report.EventRunFinished, Run: run}}
}

func TestWithoutRunFinished(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "badge"}, reporttest.Events()[:2])
	if got.Err == nil || !strings.Contains(got.Err.Error(), "run_finished") || got.Primary != "" {
		t.Errorf("err = %v, output %q", got.Err, got.Primary)
	}
}
