package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// customEvents is a hand-made stream: two tests that interleave, one of
// them with hostile text and a multi-line raw response, and a final report.
func customEvents() []report.Event {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	a := report.Test{ID: "s.yml::tools::a", Name: "a <b>&</b>", File: "s.yml", Block: "tools", Status: report.StatusPassed, DurationMS: 1}
	b := report.Test{ID: "s.yml::tools::b", Name: "b \x1b[2J\nsecond line", File: "s.yml", Block: "tools", Status: report.StatusFailed, DurationMS: 2,
		Response: json.RawMessage("{\n  \"result\": {\"text\": \"hi\"}\n}")}
	run := &report.Run{SchemaVersion: report.SchemaVersion, RunID: "run-7", StartedAt: at, FinishedAt: at.Add(time.Second),
		Suites: []string{"s.yml"}, Tests: []report.Test{a, b}}
	run.Summarize()
	header := *run
	header.Tests = nil
	return []report.Event{
		{Type: report.EventRunStarted, Time: at, Total: 2, Run: &header},
		{Type: report.EventTestStarted, Time: at, Test: &report.Test{ID: a.ID, Name: a.Name}},
		{Type: report.EventTestStarted, Time: at, Test: &report.Test{ID: b.ID, Name: b.Name}},
		{Type: report.EventTestFinished, Time: at, Test: &b},
		{Type: report.EventTestFinished, Time: at, Test: &a},
		{Type: report.EventRunFinished, Time: at.Add(time.Second), Run: run},
	}
}

// decodeLines splits output into lines and decodes each as an event.
func decodeLines(t *testing.T, out string) []report.Event {
	t.Helper()
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	var evs []report.Event
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		var ev report.Event
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("line %d is not an event: %v\n%s", n, err, line)
		}
		if dec.More() {
			t.Fatalf("line %d holds more than one JSON value: %s", n, line)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestEveryEventIsOneLineInOrder(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	in := customEvents()
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "ndjson"}, in)
	if got.Err != nil {
		t.Fatalf("render: %v", got.Err)
	}
	if got.Progress != "" || got.StepSummary != "" {
		t.Errorf("output outside the primary sink: %q %q", got.Progress, got.StepSummary)
	}
	evs := decodeLines(t, got.Primary)
	if len(evs) != len(in) {
		t.Fatalf("%d lines for %d events:\n%s", len(evs), len(in), got.Primary)
	}
	for i := range in {
		want, _ := json.Marshal(in[i])
		have, _ := json.Marshal(evs[i])
		if !bytes.Equal(want, have) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, have, want)
		}
	}
	if !strings.Contains(got.Primary, `"name":"a <b>&</b>"`) {
		t.Error("HTML characters were escaped")
	}
	if strings.ContainsRune(got.Primary, 0x1b) {
		t.Error("a raw escape character reached the output")
	}
}

func TestSampleRun(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	in := reporttest.Events()
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "ndjson"}, in)
	if got.Err != nil {
		t.Fatalf("render: %v", got.Err)
	}
	evs := decodeLines(t, got.Primary)
	if len(evs) != len(in) {
		t.Fatalf("%d lines for %d events", len(evs), len(in))
	}
	for i := range in {
		if evs[i].Type != in[i].Type {
			t.Errorf("line %d is %s, want %s", i+1, evs[i].Type, in[i].Type)
		}
	}
	last := evs[len(evs)-1].Run
	if last == nil || last.Summary != reporttest.Sample().Summary {
		t.Errorf("the run_finished line lost the summary: %+v", last)
	}
}

// TestOutputIsFlushedPerEvent drives the host side of the render stream by
// hand: the line of test 1 must reach the host before test 2's event is
// even sent, which is the whole point of this format.
func TestOutputIsFlushedPerEvent(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	chunks := make(chan []byte, 16)
	stream, err := c.Reporter.Render(context.Background(), plugintest.RenderStart{Key: "ndjson"}, func(sink plugintest.Sink, data []byte) {
		if sink == plugintest.SinkPrimary {
			chunks <- bytes.Clone(data)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	send := func(ev report.Event) {
		t.Helper()
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	// waitFor reads output until it holds n complete lines.
	waitFor := func(n int) []report.Event {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for strings.Count(buf.String(), "\n") < n {
			select {
			case b := <-chunks:
				buf.Write(b)
			case <-deadline:
				t.Fatalf("waited 10s for line %d; output so far:\n%s", n, buf.String())
			}
		}
		return decodeLines(t, buf.String())
	}

	run := &report.Run{RunID: "run-s"}
	t1 := report.Test{ID: "t1", Name: "first", Status: report.StatusPassed}
	t2 := report.Test{ID: "t2", Name: "second", Status: report.StatusFailed}
	send(report.Event{Type: report.EventRunStarted, Total: 2, Run: run})
	send(report.Event{Type: report.EventTestStarted, Test: &report.Test{ID: "t1", Name: "first"}})
	send(report.Event{Type: report.EventTestFinished, Test: &t1})

	evs := waitFor(3)
	if last := evs[2]; last.Type != report.EventTestFinished || last.Test == nil || last.Test.ID != "t1" {
		t.Fatalf("third line is %+v, want test_finished of t1", last)
	}

	// Only now does test 2 start.
	send(report.Event{Type: report.EventTestStarted, Test: &report.Test{ID: "t2", Name: "second"}})
	send(report.Event{Type: report.EventTestFinished, Test: &t2})
	final := *run
	final.Tests = []report.Test{t1, t2}
	final.Summarize()
	send(report.Event{Type: report.EventRunFinished, Run: &final})
	if err := stream.Close(); err != nil {
		t.Fatalf("render: %v", err)
	}
	close(chunks)
	for b := range chunks {
		buf.Write(b)
	}
	evs = decodeLines(t, buf.String())
	if len(evs) != 6 || evs[4].Test.ID != "t2" || evs[5].Type != report.EventRunFinished {
		t.Errorf("unexpected stream:\n%s", buf.String())
	}
}

func TestWithoutRunFinished(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	in := customEvents()
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "ndjson"}, in[:3])
	if got.Err == nil || !strings.Contains(got.Err.Error(), "run_finished") {
		t.Errorf("err = %v, want the missing run_finished error", got.Err)
	}
	// What was streamed before the cut is kept.
	if evs := decodeLines(t, got.Primary); len(evs) != 3 {
		t.Errorf("%d lines survived, want 3", len(evs))
	}
}
