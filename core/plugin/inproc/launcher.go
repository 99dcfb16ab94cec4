// Package inproc launches plugins inside the test process over real gRPC
// (sdk/plugintest), so the host, the planner and the runner are tested with
// real protobuf encoding and adapters but without building binaries.
package inproc

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// Launcher serves the plugins it holds, by name.
type Launcher struct {
	mu      sync.Mutex
	plugins map[string]*sdk.Plugin
	starts  map[string]int
	conns   []*plugintest.Conn
}

// New returns a launcher for the given plugins.
func New(plugins ...*sdk.Plugin) *Launcher {
	l := &Launcher{plugins: map[string]*sdk.Plugin{}, starts: map[string]int{}}
	for _, p := range plugins {
		l.plugins[p.Name] = p
	}
	return l
}

// Launch serves the plugin named by f's manifest.
func (l *Launcher) Launch(_ context.Context, f *plugin.Found) (plugin.Instance, error) {
	l.mu.Lock()
	p, ok := l.plugins[f.Manifest.Name]
	l.starts[f.Manifest.Name]++
	l.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no in-process plugin %q", f.Manifest.Name)
	}
	conn, err := plugintest.Dial(p)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.conns = append(l.conns, conn)
	l.mu.Unlock()
	return instance{conn}, nil
}

// Starts reports how many times a plugin was launched.
func (l *Launcher) Starts(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.starts[name]
}

// Close stops every plugin the launcher served.
func (l *Launcher) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

// Found returns the discovery record a manifest written for p would give,
// so tests need no files on disk.
func Found(p *sdk.Plugin) *plugin.Found {
	d := p.Describe()
	return &plugin.Found{
		Manifest: &plugin.Manifest{
			ManifestVersion: 1, Name: d.Name, Version: d.Version, ProtocolVersions: d.ProtocolVersions,
			Executable: plugin.ExecutablePrefix + d.Name, Components: d.Components,
			Capabilities: d.Capabilities,
		},
		Dir:          "/in-process/" + d.Name,
		ManifestPath: "/in-process/" + d.Name + "/" + plugin.ManifestFile,
		Source:       plugin.Source{Dir: "/in-process", Origin: "in-process"},
	}
}

type instance struct{ conn *plugintest.Conn }

func (i instance) Dispense(kind string) (any, error) { return i.conn.Dispense(kind) }
func (i instance) Kill()                             { i.conn.Close() }
func (i instance) Exited() bool                      { return i.conn.Exited() }
func (i instance) Done() <-chan struct{}             { return i.conn.Done() }
func (i instance) StderrTail(int) string             { return "" }
