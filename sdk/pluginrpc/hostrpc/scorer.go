package hostrpc

import (
	"context"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// ScorerClient is the host-side client of a plugin's scorers.
type ScorerClient struct {
	clientBase
	c pluginv1.ScorerClient
}

// Score sends one batch; results come back in item order.
func (c *ScorerClient) Score(ctx context.Context, items []pluginrpc.ScoreItem) ([]pluginrpc.ScoreItemResult, error) {
	req := &pluginv1.ScoreRequest{Items: make([]*pluginv1.ScoreItem, len(items))}
	for i, it := range items {
		req.Items[i] = pluginrpc.ScoreItemToProto(it)
	}
	resp, err := c.c.Score(ctx, req)
	if err != nil {
		return nil, c.wrap("score", err)
	}
	out := make([]pluginrpc.ScoreItemResult, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		out = append(out, pluginrpc.ScoreResultFromProto(r))
	}
	return out, nil
}
