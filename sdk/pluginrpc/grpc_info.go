package pluginrpc

import (
	"context"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// infoServer serves the base Info service.
type infoServer struct {
	pluginv1.UnimplementedInfoServer
	srv *pluginServer
}

func (s *infoServer) Describe(context.Context, *pluginv1.DescribeRequest) (*pluginv1.DescribeResponse, error) {
	return descriptionToProto(s.srv.plugin.Describe()), nil
}

func (s *infoServer) Configure(_ context.Context, req *pluginv1.ConfigureRequest) (*pluginv1.ConfigureResponse, error) {
	s.srv.configure(req.GetHostBrokerId(), req.GetRunJson())
	return &pluginv1.ConfigureResponse{}, nil
}
