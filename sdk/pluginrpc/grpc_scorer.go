package pluginrpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// scorerServer serves a plugin's scorers.
type scorerServer struct {
	pluginv1.UnimplementedScorerServer
	srv *pluginServer
}

func (s *scorerServer) Score(ctx context.Context, req *pluginv1.ScoreRequest) (*pluginv1.ScoreResponse, error) {
	items := req.GetItems()
	out := &pluginv1.ScoreResponse{Results: make([]*pluginv1.ScoreResult, len(items))}
	host := s.srv.hostClient()
	parallel(len(items), func(i int) {
		out.Results[i] = s.scoreOne(ctx, host, items[i])
	})
	return out, nil
}

func (s *scorerServer) scoreOne(ctx context.Context, host contract.Host, it *pluginv1.ScoreItem) (res *pluginv1.ScoreResult) {
	res = &pluginv1.ScoreResult{Id: it.GetId()}
	sc, ok := s.srv.plugin.Scorers[it.GetKey()]
	if !ok {
		res.Error = fmt.Sprintf("plugin %q has no scorer %q", s.srv.plugin.Name, it.GetKey())
		res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INVALID_ARGUMENT
		return res
	}
	defer func() {
		if r := recover(); r != nil {
			res = &pluginv1.ScoreResult{Id: it.GetId(), Error: fmt.Sprintf("scorer %q panicked: %v", it.GetKey(), r), ErrorKind: pluginv1.ErrorKind_ERROR_KIND_PANIC}
		}
	}()
	r, err := sc.Score(ctx, scoreInputFromProto(it, host))
	if err != nil {
		res.Error = err.Error()
		res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INTERNAL
		if errors.Is(err, contract.ErrInvalidArgument) {
			res.ErrorKind = pluginv1.ErrorKind_ERROR_KIND_INVALID_ARGUMENT
		}
		return res
	}
	return scoreResultToProto(it.GetId(), r)
}
