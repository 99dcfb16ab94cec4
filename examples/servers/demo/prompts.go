package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addPrompts registers the demo prompts on s.
func addPrompts(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("review_code",
		mcp.WithPromptDescription("Asks for a review of a piece of code."),
		mcp.WithArgument("code", mcp.RequiredArgument(), mcp.ArgumentDescription("The code to review")),
	), reviewCode)
	s.AddPrompt(mcp.NewPrompt("summarize",
		mcp.WithPromptDescription("Asks for a summary."),
		mcp.WithArgument("style", mcp.ArgumentDescription("Summary style, e.g. brief or detailed")),
	), summarize)
}

func reviewCode(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	code, ok := req.Params.Arguments["code"]
	if !ok || code == "" {
		return nil, fmt.Errorf("missing required argument %q", "code")
	}
	return mcp.NewGetPromptResult("Code review request", []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Please review this code:\n\n"+code)),
	}), nil
}

func summarize(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	style := req.Params.Arguments["style"]
	if style == "" {
		style = "brief"
	}
	return mcp.NewGetPromptResult("Summary request", []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(fmt.Sprintf("Summarize the conversation so far in a %s style.", style))),
	}), nil
}
