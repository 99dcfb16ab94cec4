package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// complete sends req to the stub over real gRPC, as the host does.
func complete(t *testing.T, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	t.Helper()
	conn := plugintest.New(t, newPlugin(), nil)
	return conn.Provider.Complete(context.Background(), "stub", req)
}

var weatherTool = sdk.ToolDef{Name: "get_weather", InputSchema: json.RawMessage(
	`{"type":"object","properties":{"city":{"type":"string","minLength":6},"days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]}},"required":["city","days","unit"]}`)}

func TestDefaultCallsFirstToolOnceThenAnswers(t *testing.T) {
	req := sdk.ChatRequest{Model: "stub", Messages: []sdk.Message{{Role: "user", Content: "weather in Sacramento?"}},
		Tools: []sdk.ToolDef{weatherTool, {Name: "other"}}}
	r1, err := complete(t, req)
	if err != nil {
		t.Fatal(err)
	}
	if r1.StopReason != sdk.StopToolUse || len(r1.Message.ToolCalls) != 1 || r1.Message.ToolCalls[0].Name != "get_weather" {
		t.Fatalf("first answer = %+v, want one call of get_weather", r1)
	}
	if got := string(r1.Message.ToolCalls[0].Arguments); got != `{"city":"stubxx","days":1,"unit":"c"}` {
		t.Errorf("arguments = %s", got)
	}
	if r1.Usage.InputTokens == 0 || r1.Usage.Total() != r1.Usage.InputTokens+r1.Usage.OutputTokens {
		t.Errorf("usage = %+v", r1.Usage)
	}
	// Same request, same answer: nothing is kept between calls.
	again, err := complete(t, req)
	if err != nil || string(again.Message.ToolCalls[0].Arguments) != string(r1.Message.ToolCalls[0].Arguments) || again.Usage != r1.Usage {
		t.Fatalf("repeat = %+v, %v; want %+v", again, err, r1)
	}
	req.Messages = append(req.Messages, r1.Message, sdk.Message{Role: "tool", ToolCallID: r1.Message.ToolCalls[0].ID,
		Parts: []sdk.Part{{Type: sdk.PartText, Text: "sunny"}, {Type: sdk.PartJSON, JSON: json.RawMessage(`{"t":21}`)}}})
	r2, err := complete(t, req)
	if err != nil {
		t.Fatal(err)
	}
	if r2.StopReason != sdk.StopEndTurn || len(r2.Message.ToolCalls) != 0 || r2.Message.Content != `stub: get_weather returned: sunny {"t":21}` {
		t.Fatalf("second answer = %+v", r2)
	}
	// An isError result is reported as a failure.
	req.Messages[len(req.Messages)-1].IsError = true
	r3, _ := complete(t, req)
	if !strings.Contains(r3.Message.Content, "get_weather failed") {
		t.Errorf("error result answer = %q", r3.Message.Content)
	}
}

func TestDefaultWithoutToolsEchoesAndHonoursMaxTokens(t *testing.T) {
	req := sdk.ChatRequest{Model: "stub", Messages: []sdk.Message{{Role: "user", Content: "hello there, model"}}}
	r, err := complete(t, req)
	if err != nil || r.Message.Content != "stub: hello there, model" || r.StopReason != sdk.StopEndTurn {
		t.Fatalf("answer = %+v, %v", r, err)
	}
	req.MaxTokens = 2
	r, err = complete(t, req)
	if err != nil || r.Message.Content != "stub: he" || r.StopReason != sdk.StopMaxTokens || r.Usage.OutputTokens != 2 {
		t.Fatalf("capped answer = %+v, %v", r, err)
	}
}

// The arguments the stub invents validate against the tool's schema.
func TestArgumentsAreSchemaValid(t *testing.T) {
	schemas := []string{
		string(weatherTool.InputSchema),
		`{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":3,"exclusiveMaximum":3.5}},"required":["a"]}`,
		`{"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},"required":["x"],"$defs":{"X":{"type":"array","minItems":2,"items":{"type":"string","format":"email"}}}}`,
		`{"type":"object","properties":{"n":{"type":["null","integer"],"maximum":-4},"b":{"type":"boolean"},"o":{"type":"object","properties":{"s":{"type":"string","maxLength":2}},"required":["s"]}},"required":["n","b","o"]}`,
		`{"type":"object","properties":{"k":{"anyOf":[{"type":"string","format":"date-time"},{"type":"integer"}]}},"required":["k"]}`,
		`{"type":"object"}`,
		``,
	}
	for _, s := range schemas {
		args, err := argumentsFor(json.RawMessage(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if s == "" {
			s = `{}`
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(s))
		if err := c.AddResource("s.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("s.json")
		if err != nil {
			t.Fatal(err)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(args)))
		if err := sch.Validate(v); err != nil {
			t.Errorf("arguments %s do not fit %s: %v", args, s, err)
		}
	}
	if _, err := argumentsFor(json.RawMessage(`{"$ref":"#"}`)); err == nil {
		t.Error("a self-referencing schema was walked forever or accepted")
	}
}

func TestScriptFromOptionsAndFile(t *testing.T) {
	opts := json.RawMessage(`{"script":[{"tool_calls":[{"name":"search","arguments":{"q":"x"}}]},{"text":"done","usage":{"input_tokens":7,"output_tokens":3}}]}`)
	req := sdk.ChatRequest{Model: "stub", Options: opts, Messages: []sdk.Message{{Role: "user", Content: "go"}}}
	r1, err := complete(t, req)
	if err != nil || r1.StopReason != sdk.StopToolUse || r1.Message.ToolCalls[0].Name != "search" || string(r1.Message.ToolCalls[0].Arguments) != `{"q":"x"}` {
		t.Fatalf("step 1 = %+v, %v", r1, err)
	}
	req.Messages = append(req.Messages, r1.Message, sdk.Message{Role: "tool", ToolCallID: r1.Message.ToolCalls[0].ID, Content: "r"})
	r2, err := complete(t, req)
	if err != nil || r2.Message.Content != "done" || r2.Usage.InputTokens != 7 || r2.Usage.OutputTokens != 3 {
		t.Fatalf("step 2 = %+v, %v", r2, err)
	}
	req.Messages = append(req.Messages, r2.Message)
	if _, err := complete(t, req); err == nil || !strings.Contains(err.Error(), "step 3 and the script has 2") {
		t.Fatalf("past the script: %v", err)
	}

	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`{"script":[{"text":"from file"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ScriptEnv, path)
	r, err := complete(t, sdk.ChatRequest{Model: "stub", Messages: []sdk.Message{{Role: "user", Content: "go"}}})
	if err != nil || r.Message.Content != "from file" {
		t.Fatalf("file script = %+v, %v", r, err)
	}
	if _, err := complete(t, sdk.ChatRequest{Model: "stub", Options: json.RawMessage(`{"script":[{"bogus":1}]}`)}); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("bad script: %v", err)
	}
}

func TestEmbedIsDeterministicAndSimilarForSharedWords(t *testing.T) {
	conn := plugintest.New(t, newPlugin(), nil)
	r, err := conn.Provider.Embed(context.Background(), "stub", sdk.EmbedRequest{Model: "stub", Inputs: []string{"the weather is sunny", "Sunny weather", "tax forms"}})
	if err != nil || len(r.Vectors) != 3 {
		t.Fatalf("embed = %+v, %v", r, err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if d := dot(r.Vectors[0], r.Vectors[0]); d < 0.999 || d > 1.001 {
		t.Errorf("not a unit vector: %v", d)
	}
	if dot(r.Vectors[0], r.Vectors[1]) <= dot(r.Vectors[0], r.Vectors[2]) {
		t.Error("texts sharing words are not closer than unrelated ones")
	}
}

func TestDescribeShipsZeroPrice(t *testing.T) {
	d := newPlugin().Describe()
	p, ok := sdk.LookupPrice(d.Prices, "stub")
	if !ok || p.Cost(sdk.Usage{InputTokens: 1e6, OutputTokens: 1e6}) != 0 {
		t.Fatalf("price = %+v, %v", p, ok)
	}
}
