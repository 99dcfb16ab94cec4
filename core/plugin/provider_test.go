package plugin_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// scriptedProvider answers per model: an endpoint echo, a vendor error, no
// embeddings, or a hang.
type scriptedProvider struct{}

func (scriptedProvider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	switch req.Model {
	case "refused":
		return sdk.ChatResponse{}, errors.New("vendor: the vendor refused the key: HTTP 401")
	case "hang":
		<-ctx.Done()
		return sdk.ChatResponse{}, ctx.Err()
	}
	ep, _ := sdk.EndpointFrom(ctx)
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: ep.BaseURL}, StopReason: sdk.StopEndTurn}, nil
}

func (scriptedProvider) Embed(context.Context, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, status.Error(codes.Unimplemented, "no embeddings here")
}

// A provider's own error is a refused call (not a plugin failure), a
// missing operation is ErrUnsupported, and a call that outlives the
// deadline is a hang of the plugin.
func TestHostProviderCalls(t *testing.T) {
	p := &sdk.Plugin{Name: "prov", Version: "1.0.0", Providers: map[string]sdk.Provider{"prov": scriptedProvider{}}}
	h, _ := newTestHost(t, plugin.HostOptions{CallTimeout: 300 * time.Millisecond}, p)
	f := foundFor(p)
	ctx := context.Background()
	r, err := h.Complete(ctx, f, "prov", sdk.Endpoint{BaseURL: "http://127.0.0.1:1"}, sdk.ChatRequest{Model: "ok"})
	if err != nil || r.Message.Content != "http://127.0.0.1:1" {
		t.Fatalf("ok: %+v %v", r, err)
	}
	_, err = h.Complete(ctx, f, "prov", sdk.Endpoint{}, sdk.ChatRequest{Model: "refused"})
	var pe *plugin.PluginError
	if !errors.Is(err, plugin.ErrProviderRefused) || errors.As(err, &pe) || !strings.Contains(err.Error(), "model call to refused (prov@1.0.0): vendor: the vendor refused the key: HTTP 401") {
		t.Fatalf("refused: %v", err)
	}
	_, err = h.Embed(ctx, f, "prov", sdk.Endpoint{}, sdk.EmbedRequest{Model: "e"})
	if !errors.Is(err, plugin.ErrUnsupported) {
		t.Fatalf("embed: %v", err)
	}
	_, err = h.Complete(ctx, f, "prov", sdk.Endpoint{}, sdk.ChatRequest{Model: "hang"})
	if !errors.Is(err, plugin.ErrPluginHung) {
		t.Fatalf("hang: %v", err)
	}
	// The caller giving up is not the plugin's fault.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err = h.Complete(cctx, f, "prov", sdk.Endpoint{}, sdk.ChatRequest{Model: "ok"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
