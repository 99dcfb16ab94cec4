package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// hostGRPCServer serves a host's Host implementation to a plugin.
type hostGRPCServer struct {
	pluginv1.UnimplementedHostServer
	host Host
}

func (s *hostGRPCServer) Complete(ctx context.Context, req *pluginv1.CompleteRequest) (*pluginv1.CompleteResponse, error) {
	var cr ChatRequest
	if err := json.Unmarshal(req.GetRequestJson(), &cr); err != nil {
		return nil, fmt.Errorf("decode chat request: %w", err)
	}
	resp, err := s.host.Complete(ctx, req.GetKey(), cr)
	if err != nil {
		return nil, hostErrorToStatus(err)
	}
	return completeResponseToProto(resp)
}

func (s *hostGRPCServer) Embed(ctx context.Context, req *pluginv1.EmbedRequest) (*pluginv1.EmbedResponse, error) {
	resp, err := s.host.Embed(ctx, req.GetKey(), EmbedRequest{Model: req.GetModel(), Inputs: req.GetInputs()})
	if err != nil {
		return nil, hostErrorToStatus(err)
	}
	return embedResponseToProto(resp), nil
}

// hostGRPCClient is the plugin-side Host, calling back into mcptest.
type hostGRPCClient struct {
	c pluginv1.HostClient
}

func (h *hostGRPCClient) Complete(ctx context.Context, provider string, req ChatRequest) (ChatResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return ChatResponse{}, fmt.Errorf("encode chat request: %w", err)
	}
	resp, err := h.c.Complete(ctx, &pluginv1.CompleteRequest{Key: provider, RequestJson: b})
	if err != nil {
		return ChatResponse{}, hostErrorFromStatus("host complete", err)
	}
	return completeResponseFromProto(resp)
}

func (h *hostGRPCClient) Embed(ctx context.Context, provider string, req EmbedRequest) (EmbedResponse, error) {
	resp, err := h.c.Embed(ctx, embedRequestToProto(provider, req))
	if err != nil {
		return EmbedResponse{}, hostErrorFromStatus("host embed", err)
	}
	return embedResponseFromProto(resp), nil
}

// brokenHost is the Host of a plugin whose broker connection failed.
type brokenHost struct{ err error }

func (b brokenHost) Complete(context.Context, string, ChatRequest) (ChatResponse, error) {
	return ChatResponse{}, fmt.Errorf("dial mcptest host: %w", b.err)
}

func (b brokenHost) Embed(context.Context, string, EmbedRequest) (EmbedResponse, error) {
	return EmbedResponse{}, fmt.Errorf("dial mcptest host: %w", b.err)
}

// hostErrorToStatus carries ErrNoModelKey across the wire as
// FailedPrecondition, so the plugin can tell "no key" from a failure.
func hostErrorToStatus(err error) error {
	if errors.Is(err, ErrNoModelKey) {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return err
}

// hostErrorFromStatus restores ErrNoModelKey on the plugin side.
func hostErrorFromStatus(what string, err error) error {
	if s, ok := status.FromError(err); ok && s.Code() == codes.FailedPrecondition {
		return fmt.Errorf("%s: %w: %s", what, ErrNoModelKey, s.Message())
	}
	return fmt.Errorf("%s: %w", what, err)
}
