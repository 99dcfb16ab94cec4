package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// EndpointPath is where the Streamable HTTP mock answers.
const EndpointPath = "/mcp"

// NewServer builds the MCP server the manifest describes.
func NewServer(m *Manifest) (*server.MCPServer, error) {
	opts := []server.ServerOption{server.WithRecovery()}
	if len(m.Tools) > 0 {
		opts = append(opts, server.WithToolCapabilities(false))
	}
	if len(m.Resources) > 0 {
		opts = append(opts, server.WithResourceCapabilities(false, false))
	}
	if len(m.Prompts) > 0 {
		opts = append(opts, server.WithPromptCapabilities(false))
	}
	if m.Instructions != "" {
		opts = append(opts, server.WithInstructions(m.Instructions))
	}
	s := server.NewMCPServer(m.Name, m.Version, opts...)
	for i := range m.Tools {
		t := &m.Tools[i]
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: input_schema: %w", t.Name, err)
		}
		tool := mcp.NewToolWithRawSchema(t.Name, t.Description, schema)
		if t.Annotations != nil {
			raw, _ := json.Marshal(t.Annotations)
			if err := json.Unmarshal(raw, &tool.Annotations); err != nil {
				return nil, fmt.Errorf("tool %s: annotations: %w", t.Name, err)
			}
		}
		s.AddTool(tool, (&toolHandler{tool: t}).call)
	}
	for i := range m.Resources {
		r := m.Resources[i]
		var ropts []mcp.ResourceOption
		if r.Description != "" {
			ropts = append(ropts, mcp.WithResourceDescription(r.Description))
		}
		if r.MimeType != "" {
			ropts = append(ropts, mcp.WithMIMEType(r.MimeType))
		}
		name := r.Name
		if name == "" {
			name = r.URI
		}
		s.AddResource(mcp.NewResource(r.URI, name, ropts...), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			if r.Blob != "" {
				return []mcp.ResourceContents{mcp.BlobResourceContents{URI: r.URI, MIMEType: r.MimeType, Blob: r.Blob}}, nil
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.URI, MIMEType: r.MimeType, Text: r.Text}}, nil
		})
	}
	for i := range m.Prompts {
		p := &m.Prompts[i]
		popts := []mcp.PromptOption{mcp.WithPromptDescription(p.Description)}
		for _, a := range p.Arguments {
			aopts := []mcp.ArgumentOption{mcp.ArgumentDescription(a.Description)}
			if a.Required {
				aopts = append(aopts, mcp.RequiredArgument())
			}
			popts = append(popts, mcp.WithArgument(a.Name, aopts...))
		}
		s.AddPrompt(mcp.NewPrompt(p.Name, popts...), p.get)
	}
	return s, nil
}

// toolHandler answers one tool's calls, counting them for Sequence.
type toolHandler struct {
	tool  *Tool
	mu    sync.Mutex
	calls int
}

func (h *toolHandler) call(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	if args == nil {
		args = map[string]any{}
	}
	resp := h.pick(args)
	data := map[string]any{"args": args, "tool": h.tool.Name}
	if resp.Delay > 0 {
		timer := time.NewTimer(time.Duration(resp.Delay))
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if resp.Error != "" {
		msg, err := render(resp.message, resp.Error, data)
		if err != nil {
			return nil, fmt.Errorf("mock: rendering the error of %s: %w", h.tool.Name, err)
		}
		return nil, errors.New(msg)
	}
	if resp.Result == nil {
		return mcp.NewToolResultText(""), nil
	}
	res, err := resp.Result.build(data)
	if err != nil {
		// The author's template failed on these arguments: say so as a
		// tool error, which a test sees, rather than as a crash.
		return mcp.NewToolResultError(fmt.Sprintf("mock: rendering the result of %s: %v", h.tool.Name, err)), nil
	}
	return res, nil
}

// pick chooses the response: the first case whose When the arguments
// contain, else the next sequence entry, else the tool's own.
func (h *toolHandler) pick(args map[string]any) *Response {
	for i := range h.tool.Cases {
		if contains(args, h.tool.Cases[i].When) {
			return &h.tool.Cases[i].Response
		}
	}
	if n := len(h.tool.Sequence); n > 0 {
		h.mu.Lock()
		i := h.calls % n
		h.calls++
		h.mu.Unlock()
		return &h.tool.Sequence[i].Response
	}
	return &h.tool.Response
}

// contains reports whether args has every key of when with an equal
// value, compared as JSON so 3 (YAML int) equals 3 (JSON float).
func contains(args, when map[string]any) bool {
	for k, want := range when {
		got, ok := args[k]
		if !ok || !reflect.DeepEqual(normalize(got), normalize(want)) {
			return false
		}
	}
	return true
}

func normalize(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

// build renders a result over the call's data.
func (r *Result) build(data map[string]any) (*mcp.CallToolResult, error) {
	res := &mcp.CallToolResult{IsError: r.IsError, Content: []mcp.Content{}}
	if r.Text != "" || (len(r.Content) == 0 && r.Structured == nil) {
		text, err := render(r.text, r.Text, data)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, mcp.NewTextContent(text))
	}
	for _, c := range r.Content {
		text, err := render(c.text, c.Text, data)
		if err != nil {
			return nil, err
		}
		switch c.Type {
		case "text":
			res.Content = append(res.Content, mcp.NewTextContent(text))
		case "image":
			res.Content = append(res.Content, mcp.NewImageContent(c.Data, c.MimeType))
		case "audio":
			res.Content = append(res.Content, mcp.NewAudioContent(c.Data, c.MimeType))
		case "resource_link":
			res.Content = append(res.Content, mcp.NewResourceLink(c.URI, c.Name, text, c.MimeType))
		}
	}
	if r.Structured != nil {
		v, err := renderAny(r.Structured, data)
		if err != nil {
			return nil, err
		}
		res.StructuredContent = normalize(v)
		if len(res.Content) == 0 {
			// Clients that only read content still see the value.
			raw, _ := json.Marshal(res.StructuredContent)
			res.Content = append(res.Content, mcp.NewTextContent(string(raw)))
		}
	}
	return res, nil
}

// get renders the prompt's messages over its arguments.
func (p *Prompt) get(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := map[string]any{}
	for k, v := range req.Params.Arguments {
		args[k] = v
	}
	for _, a := range p.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return nil, fmt.Errorf("prompt %s: argument %q is required", p.Name, a.Name)
		}
	}
	data := map[string]any{"args": args, "prompt": p.Name}
	msgs := make([]mcp.PromptMessage, 0, len(p.Messages))
	for _, m := range p.Messages {
		text, err := render(m.text, m.Text, data)
		if err != nil {
			return nil, fmt.Errorf("prompt %s: %w", p.Name, err)
		}
		msgs = append(msgs, mcp.NewPromptMessage(mcp.Role(m.Role), mcp.NewTextContent(text)))
	}
	return mcp.NewGetPromptResult(p.Description, msgs), nil
}

// ServeStdio serves s on stdin/stdout until stdin closes or ctx ends.
func ServeStdio(ctx context.Context, s *server.MCPServer, stdin io.Reader, stdout io.Writer) error {
	std := server.NewStdioServer(s)
	err := std.Listen(ctx, stdin, stdout)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("mock: serve stdio: %w", err)
}

// ServeHTTP serves s as Streamable HTTP on ln at EndpointPath until ctx
// ends, then shuts down within two seconds.
func ServeHTTP(ctx context.Context, s *server.MCPServer, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle(EndpointPath, server.NewStreamableHTTPServer(s))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mock: serve http: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("mock: shut down http: %w", err)
	}
	return nil
}
