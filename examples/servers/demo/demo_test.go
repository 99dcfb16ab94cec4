package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// inProcess starts an in-process client on a fresh demo server.
func inProcess(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(newServer(), client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.ProtocolVersion20251125,
		ClientInfo:      mcp.Implementation{Name: "demo-test", Version: "1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != serverName || res.ServerInfo.Version != serverVersion {
		t.Fatalf("server info = %+v", res.ServerInfo)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// callTool calls a tool and returns the result encoded back to JSON.
func callTool(t *testing.T, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func firstText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("no content")
	}
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("first block is %T", res.Content[0])
	}
	return tc.Text
}

func TestTools(t *testing.T) {
	c := inProcess(t)
	tests := []struct {
		name    string
		args    map[string]any
		text    string
		isError bool
	}{
		{"echo", map[string]any{"message": "hi there"}, "hi there", false},
		{"add", map[string]any{"a": 2, "b": 3.5}, "5.5", false},
		{"greet", map[string]any{"name": "Ada"}, "Hello, Ada!", false},
		{"greet", map[string]any{"name": "Ada", "greeting": "Hi"}, "Hi, Ada!", false},
		{"fail", map[string]any{}, "something went wrong", true},
		{"slow", map[string]any{"ms": 10}, "done", false},
		{"json_blob", map[string]any{}, jsonBlob, false},
		{"stderr_noise", map[string]any{}, "ok", false},
		{"echo", map[string]any{}, "required argument \"message\" not found", true},
	}
	for _, tt := range tests {
		res, _ := callTool(t, c, tt.name, tt.args)
		if got := firstText(t, res); got != tt.text {
			t.Errorf("%s %v: text = %q, want %q", tt.name, tt.args, got, tt.text)
		}
		if res.IsError != tt.isError {
			t.Errorf("%s %v: isError = %v", tt.name, tt.args, res.IsError)
		}
	}
}

func TestAddStructuredContent(t *testing.T) {
	c := inProcess(t)
	_, raw := callTool(t, c, "add", map[string]any{"a": 40, "b": 2})
	if !strings.Contains(raw, `"structuredContent":{"sum":42}`) {
		t.Fatalf("add result %s", raw)
	}
	ctx := context.Background()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Name == "add" {
			// mcp-go's client decodes schemas into typed fields (lossy, but
			// enough to see the schema arrived).
			s := tool.OutputSchema
			if s.Type != "object" || s.Properties["sum"] == nil || strings.Join(s.Required, ",") != "sum" {
				t.Errorf("add tool lacks its outputSchema: %+v", s)
			}
		}
	}
	if got := strings.Join(names, ","); got != "add,bump,confirm,crash,echo,elicit,fail,greet,json_blob,log,progress,request_headers,roots,sample,slow,stderr_noise" {
		t.Fatalf("tools = %s", got)
	}
}

func TestJSONBlobHasTwoBlocks(t *testing.T) {
	c := inProcess(t)
	res, _ := callTool(t, c, "json_blob", nil)
	if len(res.Content) != 2 {
		t.Fatalf("content blocks = %d", len(res.Content))
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(firstText(t, res)), &v); err != nil || v["id"] != float64(42) {
		t.Fatalf("first block is not the JSON object: %v %v", v, err)
	}
}

func TestResources(t *testing.T) {
	c := inProcess(t)
	ctx := context.Background()
	tests := []struct{ uri, mime, contains string }{
		{readmeURI, "text/markdown", "# mcptest demo"},
		{configURI, "application/json", `"name":"mcptest-demo"`},
		{"demo://items/42", "application/json", `{"id":"42","name":"item 42"}`},
	}
	for _, tt := range tests {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = tt.uri
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", tt.uri, err)
		}
		tc, ok := res.Contents[0].(mcp.TextResourceContents)
		if !ok || tc.MIMEType != tt.mime || !strings.Contains(tc.Text, tt.contains) || tc.URI != tt.uri {
			t.Errorf("%s: %+v", tt.uri, res.Contents[0])
		}
	}
	templates, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil || len(templates.ResourceTemplates) != 1 {
		t.Fatalf("templates: %v %+v", err, templates)
	}
	// The client follows the pages: every resource comes back.
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || len(list.Resources) != 3+catalogSize {
		t.Fatalf("resources: %v %d", err, len(list.Resources))
	}
}

func TestPrompts(t *testing.T) {
	c := inProcess(t)
	ctx := context.Background()
	get := func(name string, args map[string]string) (*mcp.GetPromptResult, error) {
		req := mcp.GetPromptRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		return c.GetPrompt(ctx, req)
	}
	res, err := get("review_code", map[string]string{"code": "x := 1"})
	if err != nil || !strings.Contains(res.Messages[0].Content.(mcp.TextContent).Text, "x := 1") {
		t.Fatalf("review_code: %v %+v", err, res)
	}
	if _, err := get("review_code", nil); err == nil {
		t.Fatal("review_code without code succeeded")
	}
	res, err = get("summarize", nil)
	if err != nil || !strings.Contains(res.Messages[0].Content.(mcp.TextContent).Text, "brief style") {
		t.Fatalf("summarize: %v %+v", err, res)
	}
	res, err = get("summarize", map[string]string{"style": "detailed"})
	if err != nil || !strings.Contains(res.Messages[0].Content.(mcp.TextContent).Text, "detailed style") {
		t.Fatalf("summarize detailed: %v %+v", err, res)
	}
}
