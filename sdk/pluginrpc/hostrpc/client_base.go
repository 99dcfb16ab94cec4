package hostrpc

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrPluginExited is returned by host-side clients when the plugin process
// ended during or before a call.
var ErrPluginExited = errors.New("plugin process exited")

// clientBase holds what every host-side client shares.
type clientBase struct {
	done context.Context
}

// wrap classifies an RPC error: a call that failed because the plugin
// process is gone wraps ErrPluginExited.
func (b clientBase) wrap(method string, err error) error {
	if err == nil {
		return nil
	}
	if b.done != nil && b.done.Err() != nil {
		return fmt.Errorf("%s: %w: %v", method, ErrPluginExited, err)
	}
	if s, ok := status.FromError(err); ok && s.Code() == codes.Unavailable {
		return fmt.Errorf("%s: %w: %s", method, ErrPluginExited, s.Message())
	}
	return fmt.Errorf("%s: %w", method, err)
}

// Exited reports whether the plugin process has ended.
func (b clientBase) Exited() bool { return b.done != nil && b.done.Err() != nil }

// Done is closed once the plugin process has ended. go-plugin closes it
// only after reading the plugin's stderr to the end, so a crash's last
// words are in hand by then. It is nil, never closed, for a client that
// go-plugin did not build.
func (b clientBase) Done() <-chan struct{} {
	if b.done == nil {
		return nil
	}
	return b.done.Done()
}
