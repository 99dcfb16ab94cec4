package sdk

import (
	"context"
	"encoding/json"
	"fmt"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// providerServer serves a plugin's providers.
type providerServer struct {
	pluginv1.UnimplementedProviderServer
	srv *pluginServer
}

func (s *providerServer) provider(key string) (Provider, error) {
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
	var cr ChatRequest
	if err := json.Unmarshal(req.GetRequestJson(), &cr); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decode chat request: %v", err)
	}
	if ep, ok := endpointFromProto(req.GetEndpoint()); ok {
		ctx = WithEndpoint(ctx, ep)
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
	if ep, ok := endpointFromProto(req.GetEndpoint()); ok {
		ctx = WithEndpoint(ctx, ep)
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
func (c *ProviderClient) Complete(ctx context.Context, key string, req ChatRequest) (ChatResponse, error) {
	return c.CompleteAt(ctx, key, Endpoint{}, req)
}

// CompleteAt runs a chat completion on the provider key against ep (its
// base URL and credentials); the zero Endpoint means the defaults.
func (c *ProviderClient) CompleteAt(ctx context.Context, key string, ep Endpoint, req ChatRequest) (ChatResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return ChatResponse{}, fmt.Errorf("encode chat request: %w", err)
	}
	resp, err := c.c.Complete(ctx, &pluginv1.CompleteRequest{Key: key, RequestJson: b, Endpoint: endpointToProto(ep)})
	if err != nil {
		return ChatResponse{}, c.wrap("complete", err)
	}
	return completeResponseFromProto(resp)
}

// Embed computes embeddings on the provider key.
func (c *ProviderClient) Embed(ctx context.Context, key string, req EmbedRequest) (EmbedResponse, error) {
	return c.EmbedAt(ctx, key, Endpoint{}, req)
}

// EmbedAt computes embeddings on the provider key against ep.
func (c *ProviderClient) EmbedAt(ctx context.Context, key string, ep Endpoint, req EmbedRequest) (EmbedResponse, error) {
	pr := embedRequestToProto(key, req)
	pr.Endpoint = endpointToProto(ep)
	resp, err := c.c.Embed(ctx, pr)
	if err != nil {
		return EmbedResponse{}, c.wrap("embed", err)
	}
	return embedResponseFromProto(resp), nil
}
