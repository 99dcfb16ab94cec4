package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// jsonBlob is the text of json_blob's first content block.
const jsonBlob = `{"id":42,"tags":["a","b"],"nested":{"ok":true}}`

// addOutputSchema is the outputSchema of the add tool.
var addOutputSchema = json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`)

// maxSlow caps the slow tool's sleep so a typo cannot hang a test run.
const maxSlow = 10 * time.Minute

// pure marks a tool as read-only, idempotent and closed-world, so audits of
// the demo server see realistic annotations.
func pure() []mcp.ToolOption {
	return []mcp.ToolOption{
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	}
}

// tool builds a tool from opts followed by extra options.
func tool(name string, extra []mcp.ToolOption, opts ...mcp.ToolOption) mcp.Tool {
	return mcp.NewTool(name, append(opts, extra...)...)
}

// addTools registers the demo tools on s.
func addTools(s *server.MCPServer) {
	echoOpts := []mcp.ToolOption{
		mcp.WithDescription("Returns the message unchanged."),
		mcp.WithString("message", mcp.Required(), mcp.Description("Text to echo back")),
	}
	if variant == variantSchema {
		echoOpts = append(echoOpts, mcp.WithNumber("times", mcp.Required()))
	}
	s.AddTool(tool("echo", pure(), echoOpts...), echo)
	s.AddTool(tool("add", pure(),
		mcp.WithDescription("Adds two numbers."),
		mcp.WithNumber("a", mcp.Required()),
		mcp.WithNumber("b", mcp.Required()),
		mcp.WithRawOutputSchema(addOutputSchema),
	), add)
	s.AddTool(tool("greet", pure(),
		mcp.WithDescription("Greets someone."),
		mcp.WithString("name", mcp.Required()),
		mcp.WithString("greeting", mcp.DefaultString("Hello")),
	), greet)
	s.AddTool(tool("fail", pure(),
		mcp.WithDescription("Always returns a tool error (isError: true)."),
	), fail)
	s.AddTool(tool("slow", pure(),
		mcp.WithDescription("Sleeps for ms milliseconds, then returns \"done\"."),
		mcp.WithNumber("ms", mcp.Required(), mcp.Min(0)),
	), slow)
	s.AddTool(tool("json_blob", pure(),
		mcp.WithDescription("Returns a JSON object as text plus a second content block."),
	), blob)
	s.AddTool(mcp.NewTool("crash",
		mcp.WithDescription("Exits the server process with status 3."),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	), crash)
	s.AddTool(tool("request_headers", pure(),
		mcp.WithDescription("Returns the HTTP request headers of the call as JSON text (empty over stdio); tests use it to check credentials never reach a report.")), requestHeaders)
	s.AddTool(tool("stderr_noise", pure(),
		mcp.WithDescription("Writes a line to stderr and returns \"ok\"."),
	), stderrNoise)
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	msg, err := req.RequireString("message")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(msg), nil
}

func add(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := req.RequireFloat("a")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	b, err := req.RequireFloat("b")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	sum := a + b
	if variant == variantBehaviour {
		sum++
	}
	return mcp.NewToolResultStructured(map[string]any{"sum": sum}, strconv.FormatFloat(sum, 'f', -1, 64)), nil
}

func greet(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	greeting := req.GetString("greeting", "Hello")
	return mcp.NewToolResultText(fmt.Sprintf("%s, %s!", greeting, name)), nil
}

func fail(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError("something went wrong"), nil
}

func slow(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ms, err := req.RequireFloat("ms")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	d := min(time.Duration(ms*float64(time.Millisecond)), maxSlow)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return mcp.NewToolResultText("done"), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func blob(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewTextContent(jsonBlob),
		mcp.NewTextContent("second block"),
	}}, nil
}

func crash(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	fmt.Fprintln(os.Stderr, "demo: crash requested")
	os.Exit(3)
	return nil, nil // unreachable
}

func stderrNoise(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	fmt.Fprintln(os.Stderr, "demo: some noise on stderr")
	return mcp.NewToolResultText("ok"), nil
}

// requestHeaders answers with the headers the call arrived with, so a test
// can make a server echo a credential back and check mcptest masks it.
func requestHeaders(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(req.Header)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if escapeJSON {
		// The headers twice: as structured content (escaped once, in the
		// frame) and as JSON text escaped in its own right, so the frame
		// holds them two levels deep too.
		return mcp.NewToolResultStructured(req.Header, string(escapeText(b))), nil
	}
	return mcp.NewToolResultText(string(b)), nil
}
