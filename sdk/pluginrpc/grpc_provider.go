package pluginrpc

import (
	"context"
	"encoding/json"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
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
	if ep, ok := endpointFromProto(req.GetEndpoint()); ok {
		ctx = contract.WithEndpoint(ctx, ep)
	}
	defer recoverInto(s.srv.logger, "provider complete", &err)
	out, err := p.Complete(ctx, cr)
	if err != nil {
		return nil, err
	}
	return CompleteResponseToProto(out)
}

func (s *providerServer) Embed(ctx context.Context, req *pluginv1.EmbedRequest) (resp *pluginv1.EmbedResponse, err error) {
	p, err := s.provider(req.GetKey())
	if err != nil {
		return nil, err
	}
	if ep, ok := endpointFromProto(req.GetEndpoint()); ok {
		ctx = contract.WithEndpoint(ctx, ep)
	}
	defer recoverInto(s.srv.logger, "provider embed", &err)
	out, err := p.Embed(ctx, embedRequestFromProto(req))
	if err != nil {
		return nil, err
	}
	return EmbedResponseToProto(out), nil
}
