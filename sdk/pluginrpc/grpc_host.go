package pluginrpc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// hostGRPCServer serves a host's Host implementation to a plugin.
type hostGRPCServer struct {
	pluginv1.UnimplementedHostServer
	host contract.Host
}

func (s *hostGRPCServer) Complete(ctx context.Context, req *pluginv1.CompleteRequest) (*pluginv1.CompleteResponse, error) {
	var cr contract.ChatRequest
	if err := json.Unmarshal(req.GetRequestJson(), &cr); err != nil {
		return nil, fmt.Errorf("decode chat request: %w", err)
	}
	resp, err := s.host.Complete(ctx, req.GetKey(), cr)
	if err != nil {
		return nil, err
	}
	return completeResponseToProto(resp)
}

func (s *hostGRPCServer) Embed(ctx context.Context, req *pluginv1.EmbedRequest) (*pluginv1.EmbedResponse, error) {
	resp, err := s.host.Embed(ctx, req.GetKey(), contract.EmbedRequest{Model: req.GetModel(), Inputs: req.GetInputs()})
	if err != nil {
		return nil, err
	}
	return embedResponseToProto(resp), nil
}

// hostGRPCClient is the plugin-side Host, calling back into mcptest.
type hostGRPCClient struct {
	c pluginv1.HostClient
}

func (h *hostGRPCClient) Complete(ctx context.Context, provider string, req contract.ChatRequest) (contract.ChatResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return contract.ChatResponse{}, fmt.Errorf("encode chat request: %w", err)
	}
	resp, err := h.c.Complete(ctx, &pluginv1.CompleteRequest{Key: provider, RequestJson: b})
	if err != nil {
		return contract.ChatResponse{}, fmt.Errorf("host complete: %w", err)
	}
	return completeResponseFromProto(resp)
}

func (h *hostGRPCClient) Embed(ctx context.Context, provider string, req contract.EmbedRequest) (contract.EmbedResponse, error) {
	resp, err := h.c.Embed(ctx, embedRequestToProto(provider, req))
	if err != nil {
		return contract.EmbedResponse{}, fmt.Errorf("host embed: %w", err)
	}
	return embedResponseFromProto(resp), nil
}

// brokenHost is the Host of a plugin whose broker connection failed.
type brokenHost struct{ err error }

func (b brokenHost) Complete(context.Context, string, contract.ChatRequest) (contract.ChatResponse, error) {
	return contract.ChatResponse{}, fmt.Errorf("dial mcptest host: %w", b.err)
}

func (b brokenHost) Embed(context.Context, string, contract.EmbedRequest) (contract.EmbedResponse, error) {
	return contract.EmbedResponse{}, fmt.Errorf("dial mcptest host: %w", b.err)
}

// noHost is the Host of a plugin whose host serves none.
type noHost struct{}

func (noHost) Complete(context.Context, string, contract.ChatRequest) (contract.ChatResponse, error) {
	return contract.ChatResponse{}, contract.ErrNoHost
}

func (noHost) Embed(context.Context, string, contract.EmbedRequest) (contract.EmbedResponse, error) {
	return contract.EmbedResponse{}, contract.ErrNoHost
}
