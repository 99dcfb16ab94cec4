package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// listTimeout bounds the listing of one server's tools, every page.
const listTimeout = 30 * time.Second

// maxListPages bounds the pages of tools/list read from one server, so a
// server that keeps returning cursors cannot hold the run.
const maxListPages = 100

// SessionTools serves Tools over open MCP sessions, one per server.
type SessionTools struct {
	// Order lists the servers in the order their tools are offered.
	Order []string
	// Sessions holds each server's session.
	Sessions map[string]*session.Session
	// Observe, when set, is told of every request sent, with its params
	// and the answer (mcptest record writes them into cassettes).
	Observe func(server string, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error)
}

// observe tells Observe of a request.
func (s *SessionTools) observe(server, method string, params json.RawMessage, out *session.Outcome, err error) {
	if s.Observe != nil {
		s.Observe(server, s.Sessions[server], method, params, out, err)
	}
}

// List reads every page of each server's tools/list.
func (s *SessionTools) List(ctx context.Context) ([]Tool, error) {
	var out []Tool
	for _, name := range s.Order {
		sess := s.Sessions[name]
		if sess == nil {
			return nil, fmt.Errorf("server %q has no session", name)
		}
		tools, err := s.listServer(ctx, name, sess)
		if err != nil {
			return nil, err
		}
		out = append(out, tools...)
	}
	return out, nil
}

func (s *SessionTools) listServer(ctx context.Context, name string, sess *session.Session) ([]Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var out []Tool
	cursor := ""
	for range maxListPages {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		res, err := sess.Request(ctx, "tools/list", params)
		s.observe(name, "tools/list", params, res, err)
		if err != nil {
			return nil, fmt.Errorf("server %q: tools/list: %w", name, err)
		}
		if res.RPCError != nil {
			return nil, fmt.Errorf("server %q: tools/list: %s", name, res.RPCError.Error())
		}
		var page struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res.Result, &page); err != nil {
			return nil, fmt.Errorf("server %q: tools/list: malformed result: %w", name, err)
		}
		for _, t := range page.Tools {
			out = append(out, Tool{Server: name, Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
		if page.NextCursor == "" || page.NextCursor == cursor {
			return out, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("server %q: tools/list: more than %d pages", name, maxListPages)
}

// Call sends tools/call to the server. A JSON-RPC error is returned as an
// error (with its code and message); a result flagged isError is not.
func (s *SessionTools) Call(ctx context.Context, server, tool string, args json.RawMessage) (CallResult, error) {
	sess := s.Sessions[server]
	if sess == nil {
		return CallResult{}, fmt.Errorf("server %q has no session", server)
	}
	out, err := sess.CallTool(ctx, tool, args)
	if s.Observe != nil {
		// The params CallTool sent: arguments are never null.
		a := args
		if len(a) == 0 {
			a = json.RawMessage("{}")
		}
		params, _ := json.Marshal(map[string]json.RawMessage{"name": mustJSON(tool), "arguments": a})
		s.observe(server, "tools/call", params, out, err)
	}
	if err != nil {
		return CallResult{}, err
	}
	if out.RPCError != nil {
		return CallResult{}, fmt.Errorf("JSON-RPC error: %s", out.RPCError.Error())
	}
	return CallResult{Result: out.Result, IsError: out.IsError()}, nil
}

// mustJSON encodes a string as JSON.
func mustJSON(v string) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
