package hostrpc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// ProviderClient is the host-side client of a plugin's providers.
type ProviderClient struct {
	clientBase
	c pluginv1.ProviderClient
}

// Complete runs a chat completion on the provider key.
func (c *ProviderClient) Complete(ctx context.Context, key string, req contract.ChatRequest) (contract.ChatResponse, error) {
	return c.CompleteAt(ctx, key, contract.Endpoint{}, req)
}

// CompleteAt runs a chat completion on the provider key against ep (its
// base URL and credentials); the zero Endpoint means the defaults.
func (c *ProviderClient) CompleteAt(ctx context.Context, key string, ep contract.Endpoint, req contract.ChatRequest) (contract.ChatResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return contract.ChatResponse{}, fmt.Errorf("encode chat request: %w", err)
	}
	resp, err := c.c.Complete(ctx, &pluginv1.CompleteRequest{Key: key, RequestJson: b, Endpoint: pluginrpc.EndpointToProto(ep)})
	if err != nil {
		return contract.ChatResponse{}, c.wrap("complete", err)
	}
	return pluginrpc.CompleteResponseFromProto(resp)
}

// Embed computes embeddings on the provider key.
func (c *ProviderClient) Embed(ctx context.Context, key string, req contract.EmbedRequest) (contract.EmbedResponse, error) {
	return c.EmbedAt(ctx, key, contract.Endpoint{}, req)
}

// EmbedAt computes embeddings on the provider key against ep.
func (c *ProviderClient) EmbedAt(ctx context.Context, key string, ep contract.Endpoint, req contract.EmbedRequest) (contract.EmbedResponse, error) {
	pr := pluginrpc.EmbedRequestToProto(key, req)
	pr.Endpoint = pluginrpc.EndpointToProto(ep)
	resp, err := c.c.Embed(ctx, pr)
	if err != nil {
		return contract.EmbedResponse{}, c.wrap("embed", err)
	}
	return pluginrpc.EmbedResponseFromProto(resp), nil
}
