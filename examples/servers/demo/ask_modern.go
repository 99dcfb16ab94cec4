package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// askKey is the input request key the asking tools use in the modern era.
const askKey = "ask"

// isModern reports whether req came at protocol 2026-07-28 or later, where
// a server can no longer send requests of its own.
func isModern(req mcp.CallToolRequest) bool {
	m := req.Params.Meta
	return m != nil && m.ProtocolVersion() >= "2026-07-28"
}

// ask gets the client's answer to a sampling, elicitation or roots request
// in either era: in the legacy era by sending the request (askClient); in
// the modern one by answering the call with an input request
// (pending, to return as the tool's result) and reading the answer from
// the retried call.
func ask(ctx context.Context, req mcp.CallToolRequest, method string, params any) (answer json.RawMessage, pending *mcp.CallToolResult, err error) {
	if !isModern(req) {
		answer, err = askClient(ctx, method, params)
		return answer, nil, err
	}
	if _, ok := server.InputResponse(req.Params.InputResponses, askKey); ok {
		// The answer is read as the kind this tool asked for.
		var v any
		switch responses := req.Params.InputResponses; method {
		case string(mcp.MethodSamplingCreateMessage):
			v = server.SamplingResponse(responses, askKey)
		case string(mcp.MethodElicitationCreate):
			v = server.ElicitationResponse(responses, askKey)
		case string(mcp.MethodListRoots):
			v = server.RootsResponse(responses, askKey)
		}
		if v == nil {
			return nil, nil, fmt.Errorf("the client's input response is not a %s result", method)
		}
		answer, err = json.Marshal(v)
		return answer, nil, err
	}
	b := server.NewInputRequestBuilder("")
	switch method {
	case string(mcp.MethodSamplingCreateMessage):
		b.Sample(askKey, params.(mcp.CreateMessageParams))
	case string(mcp.MethodElicitationCreate):
		b.Elicit(askKey, params.(mcp.ElicitationParams))
	case string(mcp.MethodListRoots):
		b.Roots(askKey)
	default:
		return nil, nil, fmt.Errorf("cannot ask for %s", method)
	}
	return nil, b.ToolResult(), nil
}
