package pluginrpc

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/contract"
)

// recoverInto turns a panic into an error in *err and logs the stack, so a
// bug in one call never takes the plugin process down.
func recoverInto(logger hclog.Logger, what string, err *error) {
	if r := recover(); r != nil {
		logger.Error("panic recovered", "in", what, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*err = status.Errorf(codes.Internal, "%s panicked: %v", what, r)
	}
}

// ServerOptions are the gRPC options of every server on either side (a
// plugin's services, the host's Host service for a plugin): raised
// message limits, the SDK's codec (codec.go), the transport settings
// (transport.go) and panic recovery around every handler.
func ServerOptions() []grpc.ServerOption {
	logger := hclog.Default()
	return append(transportServerOptions(),
		grpc.MaxRecvMsgSize(contract.MaxMessageBytes),
		grpc.MaxSendMsgSize(contract.MaxMessageBytes),
		serverCodec(),
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
			defer recoverInto(logger, info.FullMethod, &err)
			return h(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
			defer recoverInto(logger, info.FullMethod, &err)
			return h(srv, ss)
		}),
	)
}
