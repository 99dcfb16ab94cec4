package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
)

// proposeAssertions calls one tool and proposes expect entries that pass
// against the answer it gave: isError, each text block (exact when short,
// a prefix with contains when long) and each scalar of structuredContent.
func proposeAssertions(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	spec, err := req.RequireString("server")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	name, err := req.RequireString("tool")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	args := map[string]any{}
	if a, ok := req.GetArguments()["arguments"].(map[string]any); ok {
		args = a
	}
	target, err := toolkit.ParseServer(spec)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	target.ClientVersion = version
	ctx, cancel := context.WithTimeout(ctx, mcpToolTimeout)
	defer cancel()
	sess, err := target.Open(ctx, mcpToolTimeout)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	defer sess.Close()
	params, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	out, err := sess.Request(ctx, "tools/call", params)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if out.RPCError != nil {
		return mcp.NewToolResultText(yamlText([]map[string]any{{"target": "error.code", "matcher": map[string]any{"exact": out.RPCError.Code}}})), nil
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return mcp.NewToolResultError("the result is not an object: " + err.Error()), nil
	}
	expect := []map[string]any{{"target": "result.isError", "matcher": map[string]any{"exact": res.IsError}}}
	for i, c := range res.Content {
		if c.Type != "text" {
			continue
		}
		t := fmt.Sprintf("result.content[%d].text", i)
		if len(c.Text) <= 200 {
			expect = append(expect, map[string]any{"target": t, "matcher": map[string]any{"exact": c.Text}})
		} else {
			expect = append(expect, map[string]any{"target": t, "matcher": map[string]any{"contains": c.Text[:60]}})
		}
	}
	keys := make([]string, 0, len(res.Structured))
	for k := range res.Structured {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := res.Structured[k].(type) {
		case string, float64, bool:
			expect = append(expect, map[string]any{"target": "result.structuredContent." + k, "matcher": map[string]any{"exact": v}})
		}
	}
	return mcp.NewToolResultText(redact.New(target.Secrets...).String(yamlText(expect))), nil
}

// yamlText renders expect entries as the YAML of an expect: block.
func yamlText(expect []map[string]any) string {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(map[string]any{"expect": expect})
	return b.String()
}
