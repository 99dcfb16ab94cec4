package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// confirmKey is the key of confirm's input request.
const confirmKey = "confirm"

// addInputTools registers the tools that ask the client for input. In the
// modern era they answer with an input_required result (multi round-trip
// requests) and finish when the client retries with the answer; against a
// legacy client mcp-go turns the same handler into a server-to-client
// request.
func addInputTools(s *server.MCPServer) {
	s.AddTool(tool("confirm", pure(),
		mcp.WithDescription("Asks the user to confirm the action (elicitation), then reports the answer."),
		mcp.WithString("action", mcp.Required(), mcp.Description("What to confirm")),
	), confirm)
}

func confirm(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	action, err := req.RequireString("action")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	answer := server.ElicitationResponse(req.Params.InputResponses, confirmKey)
	if answer == nil {
		return server.NewInputRequestBuilder("confirm:"+action).Elicit(confirmKey, mcp.ElicitationParams{
			Message: "Confirm: " + action + "?",
			RequestedSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"ok": map[string]any{"type": "boolean"}},
				"required":   []string{"ok"},
			},
		}).ToolResult(), nil
	}
	if answer.Action != mcp.ElicitationResponseActionAccept {
		return mcp.NewToolResultText(fmt.Sprintf("%s: %s", action, answer.Action)), nil
	}
	ok := false
	if m, isMap := answer.Content.(map[string]any); isMap {
		ok, _ = m["ok"].(bool)
	}
	return mcp.NewToolResultText(fmt.Sprintf("%s: confirmed=%t", action, ok)), nil
}
