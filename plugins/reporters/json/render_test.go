package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/schemas"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

// fullRun uses every field of the report, with values that are easy to
// mangle: big integers, HTML characters, escape sequences, unicode.
func fullRun() *report.Run {
	score := 0.5
	start := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.UTC)
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		RunID:         "run-42",
		Tool:          report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt:     start,
		FinishedAt:    start.Add(2500 * time.Millisecond),
		DurationMS:    2500.25,
		Suites:        []string{"suite.yml", "more/other.yml"},
		Servers: []report.Server{
			{Name: "demo", Transport: "stdio", ProtocolVersion: "2025-06-18", ServerName: "demo-server", ServerVersion: "1.2.3"},
			{Name: "broken", Transport: "http", Error: "connection refused"},
		},
		Tests: []report.Test{
			{ID: "suite.yml#tools/0", Name: "echo <b>&</b> ✓", File: "suite.yml", Line: 12, Col: 5, Block: "tools",
				Server: "demo", Tool: "echo", Tags: []string{"smoke", "fast"}, Status: report.StatusPassed, DurationMS: 1.5,
				Assertions: []report.Assertion{{Index: 0, Target: "result.content[0].text", Matcher: "exact", Status: report.StatusPassed, Plugin: "text@0.1.0"}},
				Response:   json.RawMessage(`{"result":{"id":12345678901234567891,"content":[{"type":"text","text":"hi"}]}}`),
				Frames: []report.Frame{
					{Direction: "send", AtMS: 0, Data: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)},
					{Direction: "recv", AtMS: 1.25, Data: json.RawMessage(`"{\"jsonrpc\":\"2.0\",\"id\":1,\"resu"`), Truncated: true},
				}},
			{ID: "suite.yml#tools/1", Name: "fails", File: "suite.yml", Block: "tools", Status: report.StatusFailed, DurationMS: 3,
				Stderr: "\x1b[2Jwarning\n",
				Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "contains", Message: "subset", Status: report.StatusFailed,
					Score: &score, Failure: json.RawMessage(`{"path":"/isError","expected":false,"note":"missing","custom":{"n":1e400}}`)}}},
			{ID: "suite.yml#tools/2", Name: "errors", File: "suite.yml", Block: "tools", Status: report.StatusErrored, DurationMS: 1000,
				Error:      &report.Error{Kind: "timeout", Message: "no answer within 1s"},
				Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "cel", Status: report.StatusErrored, Error: "plugin crashed"}}},
			{ID: "suite.yml#tools/3", Name: "skipped", File: "suite.yml", Block: "tools", Status: report.StatusSkipped,
				Error: &report.Error{Kind: "skipped", Message: "tag filter"}},
		},
		Errors:   []report.RunError{{Source: "plugin", Name: "cel", Message: "crashed", StderrTail: "panic: boom\n"}},
		ExitCode: 2,
	}
	run.Summarize()
	run.Summary.DurationMS = 2500.25
	return run
}

// renderJSON sends run through the reporter over gRPC and returns what it
// wrote to the primary sink; other sinks must stay empty.
func renderJSON(t *testing.T, run *report.Run) []byte {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	var (
		mu    sync.Mutex
		out   bytes.Buffer
		other int
	)
	stream, err := c.Reporter.Render(context.Background(), plugintest.RenderStart{Key: "json"}, func(sink plugintest.Sink, data []byte) {
		mu.Lock()
		defer mu.Unlock()
		if sink == plugintest.SinkPrimary {
			out.Write(data)
		} else {
			other += len(data)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	send := func(ev report.Event) {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	send(report.Event{Type: report.EventRunStarted, Run: &report.Run{RunID: run.RunID}, Total: len(run.Tests)})
	for i := range run.Tests {
		send(report.Event{Type: report.EventTestFinished, Test: &run.Tests[i]})
	}
	send(report.Event{Type: report.EventRunFinished, Run: run})
	if err := stream.Close(); err != nil {
		t.Fatalf("render: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if other != 0 {
		t.Errorf("reporter wrote %d bytes outside the primary sink", other)
	}
	return out.Bytes()
}

func validate(t *testing.T, doc []byte) {
	t.Helper()
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.ReportV1))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.v1.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.v1.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("output does not satisfy report.v1.json: %v", err)
	}
}

func TestRenderValidatesAndRoundTrips(t *testing.T) {
	run := fullRun()
	out := renderJSON(t, run)

	if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
		t.Errorf("output must end with exactly one newline: %q", out[max(0, len(out)-10):])
	}
	if !bytes.HasPrefix(out, []byte("{\n  \"schema_version\": \"1\",\n")) {
		t.Errorf("output is not indented as expected: %q", out[:min(len(out), 60)])
	}
	if bytes.IndexByte(out, 0x1b) >= 0 {
		t.Error("a raw escape character reached the output")
	}
	for _, want := range []string{`"echo <b>&</b> ✓"`, `12345678901234567891`, `1e400`, `"\u001b[2Jwarning\n"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	validate(t, out)

	var back report.Run
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("round trip: %v", err)
	}
	// json.Marshal compacts raw values, so equal reports encode equally.
	want, _ := json.Marshal(run)
	got, _ := json.Marshal(&back)
	if !bytes.Equal(got, want) {
		t.Errorf("round trip changed the report:\n got %s\nwant %s", got, want)
	}
	if !back.StartedAt.Equal(run.StartedAt) || back.Summary != run.Summary || back.Tests[1].Assertions[0].Score == nil {
		t.Errorf("round trip lost fields: %+v", back.Summary)
	}
}

func TestRenderEmptyListsAreArrays(t *testing.T) {
	run := &report.Run{SchemaVersion: report.SchemaVersion, RunID: "empty", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt: time.Unix(0, 0).UTC(), FinishedAt: time.Unix(1, 0).UTC()}
	out := renderJSON(t, run)
	for _, want := range []string{`"suites": []`, `"tests": []`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	validate(t, out)
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), "json")
}
