package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The tools and the resource here exercise what a server sends its client
// besides answers: progress, log messages, sampling, elicitation and roots
// requests, and resource update notifications.

// counterURI is the subscribable resource the bump tool updates.
const counterURI = "demo://counter"

// notifyGap is how long the demo waits after each notification it sends
// during a call: mcp-go's Streamable HTTP server drops a notification it
// has not yet written when the call's response goes out, and its stdio
// server writes notifications and responses from different goroutines.
const notifyGap = 25 * time.Millisecond

// maxSteps bounds the progress tool's notifications.
const maxSteps = 100

// logLevels are the RFC 5424 levels of MCP logging, most verbose first.
var logLevels = []mcp.LoggingLevel{
	mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
	mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency,
}

// elicitSchema is what the elicit tool asks for; two fields have defaults.
var elicitSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":       map[string]any{"type": "string", "description": "Your name", "default": "Grace"},
		"age":        map[string]any{"type": "integer", "description": "Your age", "default": 36},
		"newsletter": map[string]any{"type": "boolean", "description": "Subscribe to the newsletter"},
	},
	"required": []string{"name"},
}

// counter is the value of counterURI.
var counter atomic.Int64

// subscriptions records which sessions subscribed to which URIs.
var subscriptions = struct {
	sync.Mutex
	m map[string]map[string]bool // session id -> URIs
}{m: map[string]map[string]bool{}}

// featureOptions are the server options the features need: the logging
// capability, resource subscriptions, and hooks that track them.
func featureOptions() []server.ServerOption {
	hooks := &server.Hooks{}
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		setSubscribed(ctx, req.Params.URI, true)
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		setSubscribed(ctx, req.Params.URI, false)
	})
	// The modern era subscribes for as long as a subscriptions/listen
	// request is open. Over stdio its session is the connection the bump
	// tool's calls come on; over HTTP each request has a session of its
	// own, so there the counter's updates reach legacy subscribers only.
	hooks.AddBeforeSubscriptionsListen(func(ctx context.Context, _ any, req *mcp.SubscriptionsListenRequest) {
		for _, uri := range req.Params.Notifications.ResourceSubscriptions {
			setSubscribed(ctx, uri, true)
		}
	})
	hooks.AddAfterSubscriptionsListen(func(ctx context.Context, _ any, req *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		for _, uri := range req.Params.Notifications.ResourceSubscriptions {
			setSubscribed(ctx, uri, false)
		}
	})
	return []server.ServerOption{
		server.WithLogging(),
		server.WithResourceCapabilities(true, false),
		server.WithHooks(hooks),
	}
}

// setSubscribed records a subscription change of the calling session.
func setSubscribed(ctx context.Context, uri string, on bool) {
	sess := server.ClientSessionFromContext(ctx)
	if sess == nil {
		return
	}
	subscriptions.Lock()
	defer subscriptions.Unlock()
	set := subscriptions.m[sess.SessionID()]
	if set == nil {
		set = map[string]bool{}
		subscriptions.m[sess.SessionID()] = set
	}
	set[uri] = on
}

// subscribed reports whether a session subscribed to uri.
func subscribed(sessionID, uri string) bool {
	subscriptions.Lock()
	defer subscriptions.Unlock()
	return subscriptions.m[sessionID][uri]
}

// addFeatures registers the feature tools and the counter resource.
func addFeatures(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("progress",
		mcp.WithDescription("Sends steps progress notifications (progress 1..steps of total steps) when the call carries a progress token; non_monotonic repeats an earlier value at the end."),
		mcp.WithNumber("steps", mcp.DefaultNumber(3), mcp.Min(0), mcp.Max(maxSteps)),
		mcp.WithBoolean("non_monotonic"),
	), progressTool)
	s.AddTool(mcp.NewTool("log",
		mcp.WithDescription("Sends a log message (notifications/message) at each of levels (default: all eight), subject to the level the client set."),
		mcp.WithArray("levels", mcp.WithStringEnumItems(levelNames())),
		mcp.WithString("message", mcp.DefaultString("hello")),
	), logTool)
	s.AddTool(mcp.NewTool("sample",
		mcp.WithDescription("Asks the client for an LLM completion (sampling/createMessage) of prompt and returns its text."),
		mcp.WithString("prompt", mcp.Required()),
	), sampleTool)
	s.AddTool(mcp.NewTool("elicit",
		mcp.WithDescription("Asks the client for a name, an age and a newsletter choice (elicitation/create) and returns {action, content}."),
		mcp.WithString("message", mcp.DefaultString("Who are you?")),
	), elicitTool)
	s.AddTool(mcp.NewTool("roots",
		mcp.WithDescription("Asks the client for its roots (roots/list) and returns them."),
	), rootsTool)
	s.AddTool(mcp.NewTool("bump",
		mcp.WithDescription("Increments demo://counter times times, notifying subscribers each time; with delay_ms, the updates come that long after the call returns."),
		mcp.WithNumber("times", mcp.DefaultNumber(1), mcp.Min(1), mcp.Max(maxSteps)),
		mcp.WithNumber("delay_ms", mcp.DefaultNumber(0), mcp.Min(0), mcp.Max(60_000)),
	), bumpTool)
	s.AddResource(mcp.NewResource(counterURI, "counter",
		mcp.WithResourceDescription("A counter the bump tool increments; subscribe to hear of it."),
		mcp.WithMIMEType("application/json"),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: counterURI, MIMEType: "application/json",
			Text: fmt.Sprintf(`{"count":%d}`, counter.Load())}}, nil
	})
}

func levelNames() []string {
	out := make([]string, len(logLevels))
	for i, l := range logLevels {
		out[i] = string(l)
	}
	return out
}

// pause waits notifyGap, or less if the call is cancelled.
func pause(ctx context.Context) {
	t := time.NewTimer(notifyGap)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func progressTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	steps := int(req.GetFloat("steps", 3))
	var token mcp.ProgressToken
	if m := req.Params.Meta; m != nil {
		token = m.ProgressToken
	}
	if token == nil {
		return mcp.NewToolResultText("no progress token, no progress sent"), nil
	}
	values := make([]int, 0, steps+1)
	for i := 1; i <= steps; i++ {
		values = append(values, i)
	}
	if req.GetBool("non_monotonic", false) && steps > 1 {
		values = append(values, steps-1)
	}
	srv := server.ServerFromContext(ctx)
	for _, v := range values {
		err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": v, "total": steps,
			"message": fmt.Sprintf("step %d of %d", v, steps),
		})
		if err != nil {
			return mcp.NewToolResultError("progress: " + err.Error()), nil
		}
		pause(ctx)
	}
	return mcp.NewToolResultText(fmt.Sprintf("sent %d progress notifications", len(values))), nil
}

func logTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	levels := logLevels
	if names := req.GetStringSlice("levels", nil); names != nil {
		levels = levels[:0:0]
		for _, n := range names {
			levels = append(levels, mcp.LoggingLevel(n))
		}
	}
	msg := req.GetString("message", "hello")
	srv := server.ServerFromContext(ctx)
	for _, l := range levels {
		err := srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(l, "demo", msg+" at "+string(l)))
		if err != nil {
			return mcp.NewToolResultError("log: " + err.Error()), nil
		}
		pause(ctx)
	}
	return mcp.NewToolResultText(fmt.Sprintf("logged at %d levels", len(levels))), nil
}

func sampleTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	prompt, err := req.RequireString("prompt")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	raw, pending, err := ask(ctx, req, string(mcp.MethodSamplingCreateMessage), mcp.CreateMessageParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(prompt)}},
		MaxTokens: 100,
	})
	if pending != nil {
		return pending, nil
	}
	if err != nil {
		return mcp.NewToolResultError("sampling failed: " + err.Error()), nil
	}
	var res struct {
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
		Model string `json:"model"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError("sampling answer: " + err.Error()), nil
	}
	return mcp.NewToolResultStructured(map[string]any{"text": res.Content.Text, "model": res.Model}, res.Content.Text), nil
}

func elicitTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw, pending, err := ask(ctx, req, string(mcp.MethodElicitationCreate), mcp.ElicitationParams{
		Message:         req.GetString("message", "Who are you?"),
		RequestedSchema: elicitSchema,
	})
	if pending != nil {
		return pending, nil
	}
	if err != nil {
		return mcp.NewToolResultError("elicitation failed: " + err.Error()), nil
	}
	var res map[string]any
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError("elicitation answer: " + err.Error()), nil
	}
	return mcp.NewToolResultStructured(res, string(raw)), nil
}

func rootsTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw, pending, err := ask(ctx, req, string(mcp.MethodListRoots), nil)
	if pending != nil {
		return pending, nil
	}
	if err != nil {
		return mcp.NewToolResultError("roots failed: " + err.Error()), nil
	}
	var res map[string]any
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError("roots answer: " + err.Error()), nil
	}
	return mcp.NewToolResultStructured(map[string]any{"roots": res["roots"]}, string(raw)), nil
}

func bumpTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	times := int(req.GetFloat("times", 1))
	delay := time.Duration(req.GetFloat("delay_ms", 0)) * time.Millisecond
	srv := server.ServerFromContext(ctx)
	sess := server.ClientSessionFromContext(ctx)
	if sess == nil {
		return mcp.NewToolResultError("no client session"), nil
	}
	id := sess.SessionID()
	updated := map[string]any{"uri": counterURI}
	if delay == 0 {
		// During the call: over Streamable HTTP on the call's own stream.
		for range times {
			counter.Add(1)
			if subscribed(id, counterURI) {
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationResourceUpdated), updated)
				pause(ctx)
			}
		}
		return mcp.NewToolResultText("count " + strconv.FormatInt(counter.Load(), 10)), nil
	}
	// After the call: over Streamable HTTP on the standalone GET stream.
	go func() {
		time.Sleep(delay)
		for range times {
			counter.Add(1)
			if subscribed(id, counterURI) {
				_ = srv.SendNotificationToSpecificClient(id, string(mcp.MethodNotificationResourceUpdated), updated)
				time.Sleep(notifyGap)
			}
		}
	}()
	return mcp.NewToolResultText(fmt.Sprintf("will bump %d times in %s", times, delay)), nil
}
