package pluginrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

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
		return contract.ChatResponse{}, hostErrorFromStatus("host complete", err)
	}
	return CompleteResponseFromProto(resp)
}

func (h *hostGRPCClient) Embed(ctx context.Context, provider string, req contract.EmbedRequest) (contract.EmbedResponse, error) {
	resp, err := h.c.Embed(ctx, EmbedRequestToProto(provider, req))
	if err != nil {
		return contract.EmbedResponse{}, hostErrorFromStatus("host embed", err)
	}
	return EmbedResponseFromProto(resp), nil
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

// hostErrorFromStatus restores ErrNoModelKey on the plugin side from the
// FailedPrecondition status the host sends for it (HostErrorToStatus).
func hostErrorFromStatus(what string, err error) error {
	s, ok := status.FromError(err)
	if ok && s.Code() == codes.FailedPrecondition {
		return fmt.Errorf("%s: %w: %s", what, contract.ErrNoModelKey, s.Message())
	}
	if ok && s.Code() == codes.ResourceExhausted {
		return &hostError{what: what, msg: s.Message(), err: err, sentinel: contract.ErrCostCap}
	}
	if ok && s.Code() == codes.Unknown {
		// The host's own error (a refused --max-cost call, a provider's
		// failure): its text alone, without gRPC's "rpc error: code =
		// Unknown desc =" in front, which tells the user nothing.
		return &hostError{what: what, msg: s.Message(), err: err}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// hostError is an error the host returned, worded as the host worded it;
// it unwraps to the gRPC status error.
type hostError struct {
	what, msg string
	err       error
	// sentinel, when set, is the contract error the status stood for.
	sentinel error
}

func (e *hostError) Error() string { return e.what + ": " + e.msg }
func (e *hostError) Unwrap() []error {
	if e.sentinel != nil {
		return []error{e.err, e.sentinel}
	}
	return []error{e.err}
}

// HostErrorToStatus carries ErrNoModelKey across the wire as
// FailedPrecondition and ErrCostCap as ResourceExhausted, so the plugin
// can tell "no key" and "over budget" from a failure; the host's Host
// service (hostrpc) sends its errors through it.
func HostErrorToStatus(err error) error {
	if errors.Is(err, contract.ErrNoModelKey) {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	if errors.Is(err, contract.ErrCostCap) {
		return status.Error(codes.ResourceExhausted, err.Error())
	}
	return err
}
