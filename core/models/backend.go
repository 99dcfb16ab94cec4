package models

import (
	"context"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// pluginBackend reaches provider plugins through the run's plugin host:
// keys resolve to plugins from their manifests, which also hold the price
// tables, so pricing starts no process.
type pluginBackend struct {
	reg  *plugin.Registry
	host *plugin.Host
}

// PluginBackend returns the Backend of a run: provider keys resolved by
// reg, plugins started (on first use) and called by host.
func PluginBackend(reg *plugin.Registry, host *plugin.Host) Backend {
	return &pluginBackend{reg: reg, host: host}
}

func (b *pluginBackend) Complete(ctx context.Context, key string, ep sdk.Endpoint, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	f, err := b.reg.Resolve(sdk.KindProvider, key)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	return b.host.Complete(ctx, f, key, ep, req)
}

func (b *pluginBackend) Embed(ctx context.Context, key string, ep sdk.Endpoint, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	f, err := b.reg.Resolve(sdk.KindProvider, key)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	return b.host.Embed(ctx, f, key, ep, req)
}

func (b *pluginBackend) Prices(key string) ([]sdk.ModelPrice, error) {
	f, err := b.reg.Resolve(sdk.KindProvider, key)
	if err != nil {
		return nil, err
	}
	return f.Manifest.Prices, nil
}
