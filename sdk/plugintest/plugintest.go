// Package plugintest serves a plugin in-process over real gRPC, so plugin
// authors and mcptest's own core can test against real protobuf encoding,
// the real message limits and the real adapters without building a binary.
package plugintest

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

// Conn is a connection to an in-process plugin, holding the same host-side
// clients mcptest uses for a plugin process.
type Conn struct {
	Info     *hostrpc.InfoClient
	Matcher  *hostrpc.MatcherClient
	Reporter *hostrpc.ReporterClient
	Provider *hostrpc.ProviderClient
	Scorer   *hostrpc.ScorerClient

	client *plugin.Client
	stop   func()
	closed chan struct{}
}

// New serves p and connects to it, then configures it as mcptest does; if
// host is not nil it is offered to the plugin for model calls. Clients of
// kinds p does not serve are nil. Everything stops when the test ends.
func New(t testing.TB, p *sdk.Plugin, host sdk.Host) *Conn {
	t.Helper()
	conn, err := Dial(p)
	if err != nil {
		t.Fatalf("plugintest: %v", err)
	}
	t.Cleanup(conn.Close)
	if err := conn.Info.Configure(context.Background(), host, []byte(`{}`)); err != nil {
		t.Fatalf("plugintest: configure: %v", err)
	}
	return conn
}

// Dial serves p in-process and connects to it without configuring it; the
// caller must Close the connection.
func Dial(p *sdk.Plugin) (*Conn, error) {
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	closed := make(chan struct{})
	go pluginrpc.ServeInProcess(ctx, p, addr, closed)
	var rc *plugin.ReattachConfig
	select {
	case a := <-addr:
		rc = &plugin.ReattachConfig{Protocol: plugin.ProtocolGRPC, ProtocolVersion: sdk.ProtocolVersion, Addr: a, Pid: os.Getpid(), Test: true}
	case <-closed:
		cancel()
		return nil, errors.New("plugintest: the plugin could not listen")
	case <-time.After(10 * time.Second):
		cancel()
		return nil, context.DeadlineExceeded
	}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig: hostrpc.Handshake(),
		// A reattached client dispenses from Plugins, not VersionedPlugins.
		Plugins:          hostrpc.ClientPluginSet(),
		Reattach:         rc,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  hostrpc.GRPCDialOptions(),
		Logger:           hclog.NewNullLogger(),
	})
	c := &Conn{client: client, closed: closed, stop: func() {
		client.Kill()
		cancel()
		<-closed
	}}
	rpc, err := client.Client()
	if err != nil {
		c.Close()
		return nil, err
	}
	raw, err := rpc.Dispense(pluginrpc.KindInfo)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.Info = raw.(*hostrpc.InfoClient)
	for _, comp := range p.Describe().Components {
		raw, err := rpc.Dispense(comp.Kind)
		if err != nil {
			c.Close()
			return nil, err
		}
		switch cl := raw.(type) {
		case *hostrpc.MatcherClient:
			c.Matcher = cl
		case *hostrpc.ReporterClient:
			c.Reporter = cl
		case *hostrpc.ProviderClient:
			c.Provider = cl
		case *hostrpc.ScorerClient:
			c.Scorer = cl
		}
	}
	return c, nil
}

// Dispense returns the raw host-side client of a kind, as a plugin process
// would hand it out.
func (c *Conn) Dispense(kind string) (any, error) {
	rpc, err := c.client.Client()
	if err != nil {
		return nil, err
	}
	return rpc.Dispense(kind)
}

// Exited reports whether the plugin has stopped.
func (c *Conn) Exited() bool { return c.client.Exited() }

// Done is closed once the in-process plugin has stopped serving, which is
// what a process exit is for a plugin binary.
func (c *Conn) Done() <-chan struct{} { return c.closed }

// Close stops the plugin and waits for it.
func (c *Conn) Close() { c.stop() }
