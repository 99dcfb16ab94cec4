package pluginrpc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// providerServer serves a plugin's providers.
type providerServer struct {
	pluginv1.UnimplementedProviderServer
	srv *pluginServer
}

func (s *providerServer) provider(key string) (contract.Provider, error) {
	p, ok := s.srv.plugin.Providers[key]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "plugin %q has no provider %q", s.srv.plugin.Name, key)
	}
	return p, nil
}

func (s *providerServer) Complete(ctx context.Context, req *pluginv1.CompleteRequest) (resp *pluginv1.CompleteResponse, err error) {
	p, err := s.provider(req.GetKey())
	if err != nil {
		return nil, err
	}
	var cr contract.ChatRequest
	if err := json.Unmarshal(req.GetRequestJson(), &cr); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decode chat request: %v", err)
	}
	defer recoverInto(s.srv.logger, "provider complete", &err)
	out, err := p.Complete(ctx, cr)
	if err != nil {
		return nil, err
	}
	return completeResponseToProto(out)
}

func (s *providerServer) Embed(ctx context.Context, req *pluginv1.EmbedRequest) (resp *pluginv1.EmbedResponse, err error) {
	p, err := s.provider(req.GetKey())
	if err != nil {
		return nil, err
	}
	defer recoverInto(s.srv.logger, "provider embed", &err)
	out, err := p.Embed(ctx, embedRequestFromProto(req))
	if err != nil {
		return nil, err
	}
	return embedResponseToProto(out), nil
}

// ProviderClient is the host-side client of a plugin's providers.
type ProviderClient struct {
	clientBase
	c pluginv1.ProviderClient
}

// Complete runs a chat completion on the provider key.
func (c *ProviderClient) Complete(ctx context.Context, key string, req contract.ChatRequest) (contract.ChatResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return contract.ChatResponse{}, fmt.Errorf("encode chat request: %w", err)
	}
	resp, err := c.c.Complete(ctx, &pluginv1.CompleteRequest{Key: key, RequestJson: b})
	if err != nil {
		return contract.ChatResponse{}, c.wrap("complete", err)
	}
	return completeResponseFromProto(resp)
}

// Embed computes embeddings on the provider key.
func (c *ProviderClient) Embed(ctx context.Context, key string, req contract.EmbedRequest) (contract.EmbedResponse, error) {
	resp, err := c.c.Embed(ctx, embedRequestToProto(key, req))
	if err != nil {
		return contract.EmbedResponse{}, c.wrap("embed", err)
	}
	return embedResponseFromProto(resp), nil
}
