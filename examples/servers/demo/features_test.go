package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// handlers answer the demo's requests to the client, like a host would.
type handlers struct{}

func (handlers) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	text := req.Messages[0].Content.(mcp.TextContent).Text
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant,
		Content: mcp.NewTextContent("you said " + text)}, Model: "m"}, nil
}

func (handlers) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"name": "Ada"}}}, nil
}

func (handlers) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///w", Name: "w"}}}, nil
}

// featureClient starts an in-process client with handlers that records
// the notifications it receives. arrived receives a signal after each
// one (coalesced: a waiter re-reads notes after every signal).
func featureClient(t *testing.T) (c *client.Client, notes func() []mcp.JSONRPCNotification, arrived <-chan struct{}) {
	t.Helper()
	h := handlers{}
	var err error
	c, err = client.NewInProcessClientWithOptions(newServer(), client.WithProtocolVersion(mcp.ProtocolVersion20251125),
		client.WithSamplingHandler(h), client.WithElicitationHandler(h), client.WithRootsHandler(h))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []mcp.JSONRPCNotification
	signal := make(chan struct{}, 1)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		mu.Lock()
		got = append(got, n)
		mu.Unlock()
		select {
		case signal <- struct{}{}:
		default:
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.ProtocolVersion20251125, ClientInfo: mcp.Implementation{Name: "t", Version: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Capabilities.Logging == nil || res.Capabilities.Resources == nil || !res.Capabilities.Resources.Subscribe {
		t.Fatalf("capabilities %+v", res.Capabilities)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, func() []mcp.JSONRPCNotification {
		mu.Lock()
		defer mu.Unlock()
		return append([]mcp.JSONRPCNotification(nil), got...)
	}, signal
}

func TestFeatureTools(t *testing.T) {
	c, notes, arrived := featureClient(t)
	ctx := context.Background()

	if _, text := callTool(t, c, "progress", map[string]any{"steps": 2}); !strings.Contains(text, "no progress token") {
		t.Errorf("progress without a token: %s", text)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "progress", map[string]any{"steps": 3, "non_monotonic": true}
	req.Params.Meta = &mcp.Meta{ProgressToken: "t"}
	if res, err := c.CallTool(ctx, req); err != nil || !strings.Contains(firstText(t, res), "sent 4") {
		t.Fatalf("progress: %v %+v", err, res)
	}

	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelNotice}}); err != nil {
		t.Fatal(err)
	}
	callTool(t, c, "log", map[string]any{"levels": []string{"debug", "notice", "error"}, "message": "m"})

	if res, _ := callTool(t, c, "sample", map[string]any{"prompt": "hi"}); firstText(t, res) != "you said hi" {
		t.Errorf("sample: %+v", res)
	}
	if _, text := callTool(t, c, "elicit", nil); !strings.Contains(text, `"action":"accept"`) || !strings.Contains(text, "Ada") {
		t.Errorf("elicit: %s", text)
	}
	if _, text := callTool(t, c, "roots", nil); !strings.Contains(text, "file:///w") {
		t.Errorf("roots: %s", text)
	}

	before := counter.Load()
	callTool(t, c, "bump", nil) // not subscribed: no notification
	sub := mcp.SubscribeRequest{}
	sub.Params.URI = counterURI
	if err := c.Subscribe(ctx, sub); err != nil {
		t.Fatal(err)
	}
	callTool(t, c, "bump", map[string]any{"times": 2})
	if n := counter.Load() - before; n != 3 {
		t.Errorf("counter moved by %d", n)
	}

	var got []string
	deadline := time.After(5 * time.Second)
	for done := false; !done; {
		got = got[:0]
		for _, n := range notes() {
			f := n.Params.AdditionalFields
			switch n.Method {
			case "notifications/progress":
				got = append(got, fmt.Sprint("p", f["progress"]))
			case "notifications/message":
				got = append(got, fmt.Sprint(f["level"]))
			case "notifications/resources/updated":
				got = append(got, "u")
			}
		}
		if len(got) >= 8 {
			break
		}
		select {
		case <-arrived:
		case <-deadline:
			done = true
		}
	}
	if s := strings.Join(got, " "); s != "p1 p2 p3 p2 notice error u u" {
		t.Errorf("notifications: %s", s)
	}
}
