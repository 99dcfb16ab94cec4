package plugin

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

// ErrProviderRefused is matched by the error of a model call that the
// provider plugin answered with an error of its own (the vendor refused the
// key, the request, or sent a malformed reply), as opposed to a plugin that
// crashed or hung.
var ErrProviderRefused = errors.New("model call failed")

// ErrUnsupported is matched when a provider does not offer the operation,
// such as embeddings on a family without an embeddings API.
var ErrUnsupported = errors.New("not supported by the provider")

// providerError is a provider's own error: its message, as the plugin
// wrote it, and the sentinel it matches.
type providerError struct {
	msg      string
	sentinel error
}

func (e *providerError) Error() string { return e.msg }

// Is matches ErrProviderRefused, and ErrUnsupported for an operation the
// provider lacks.
func (e *providerError) Is(target error) bool {
	return target == ErrProviderRefused || target == e.sentinel
}

// Complete runs a chat completion on provider key of plugin f against ep,
// starting the plugin on first use. The call is bounded by the host's call
// timeout; a plugin that crashes or hangs is handled as for any other call.
func (h *Host) Complete(ctx context.Context, f *Found, key string, ep sdk.Endpoint, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	var out sdk.ChatResponse
	err := h.providerCall(ctx, f, fmt.Sprintf("model call to %s", req.Model), func(ctx context.Context, c *hostrpc.ProviderClient) (err error) {
		out, err = c.CompleteAt(ctx, key, ep, req)
		return err
	})
	return out, err
}

// Embed computes embeddings on provider key of plugin f against ep.
func (h *Host) Embed(ctx context.Context, f *Found, key string, ep sdk.Endpoint, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	var out sdk.EmbedResponse
	err := h.providerCall(ctx, f, fmt.Sprintf("embedding call to %s", req.Model), func(ctx context.Context, c *hostrpc.ProviderClient) (err error) {
		out, err = c.EmbedAt(ctx, key, ep, req)
		return err
	})
	return out, err
}

// providerCall runs one call into f's provider service and classifies its
// failure.
func (h *Host) providerCall(ctx context.Context, f *Found, during string, call func(context.Context, *hostrpc.ProviderClient) error) error {
	inc, err := h.get(ctx, f)
	if err != nil {
		return err
	}
	if inc.provider == nil {
		return newPluginError(f, errors.New("serves no providers"), "")
	}
	p, err := h.proc(f)
	if err != nil {
		return err
	}
	p.sem <- struct{}{}
	defer func() { <-p.sem }()
	callCtx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	err = call(callCtx, inc.provider)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		// The caller gave up (interrupt, a time budget): not the plugin's
		// fault, and it must not be stopped for it.
		return fmt.Errorf("%s: %w", during, ctx.Err())
	}
	st, isStatus := status.FromError(errors.Unwrap(err))
	timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
	if isStatus && !timedOut && !inc.inst.Exited() && !inc.stopped.Load() && !errors.Is(err, hostrpc.ErrPluginExited) {
		pe := &providerError{msg: fmt.Sprintf("%s (%s): %s", during, f.Label(), st.Message())}
		if st.Code() == codes.Unimplemented {
			pe.sentinel = ErrUnsupported
		}
		return pe
	}
	return h.callFailed(p, inc, callCtx, err, during)
}
