package plugin_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// orderedInfo is an Info service that answers Describe only once Configure
// has arrived (or gives up after a while), so a host that waits for
// Describe's answer before it sends Configure fails to start it.
type orderedInfo struct {
	pluginv1.UnimplementedInfoServer
	desc       *pluginv1.DescribeResponse
	configured chan struct{}
}

func (o *orderedInfo) Describe(ctx context.Context, _ *pluginv1.DescribeRequest) (*pluginv1.DescribeResponse, error) {
	select {
	case <-o.configured:
		return o.desc, nil
	case <-time.After(5 * time.Second):
		return nil, errors.New("describe waited 5s and configure never came")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (o *orderedInfo) Configure(context.Context, *pluginv1.ConfigureRequest) (*pluginv1.ConfigureResponse, error) {
	close(o.configured)
	return &pluginv1.ConfigureResponse{}, nil
}

// rpcInstance is a plugin served by a bare gRPC server in the test, with
// the host-side clients go-plugin would dispense for it.
type rpcInstance struct {
	conn *grpc.ClientConn
	srv  *grpc.Server
	done chan struct{}
}

func (r *rpcInstance) Dispense(kind string) (any, error) {
	gp := hostrpc.ClientPluginSet()[kind].(goplugin.GRPCPlugin)
	return gp.GRPCClient(context.Background(), nil, r.conn)
}
func (r *rpcInstance) Kill()                 { r.conn.Close(); r.srv.Stop() }
func (r *rpcInstance) Exited() bool          { return false }
func (r *rpcInstance) Done() <-chan struct{} { return r.done }
func (r *rpcInstance) StderrTail(int) string { return "" }

type rpcLauncher struct{ inst *rpcInstance }

func (l rpcLauncher) Launch(context.Context, *plugin.Found) (plugin.Instance, error) {
	return l.inst, nil
}

// A start sends Configure without waiting for Describe's answer: one round
// trip to a starting plugin, not two, before its first call.
func TestStartConfiguresWithoutWaitingForDescribe(t *testing.T) {
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &countingMatcher{}}}
	lis, err := net.Listen("unix", filepath.Join(t.TempDir(), "plugin.sock"))
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	desc := &pluginv1.DescribeResponse{Name: "eq", Version: "1.0.0", ProtocolVersion: sdk.ProtocolVersion,
		Components: []*pluginv1.Component{{Kind: sdk.KindMatcher, Keys: []string{"eq"}}}}
	pluginv1.RegisterInfoServer(srv, &orderedInfo{desc: desc, configured: make(chan struct{})})
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("unix://"+lis.Addr().String(),
		append(hostrpc.GRPCDialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	h := plugin.NewHost(rpcLauncher{&rpcInstance{conn: conn, srv: srv, done: make(chan struct{})}}, plugin.HostOptions{CallTimeout: 20 * time.Second})
	defer h.Close()
	if _, err := h.Description(context.Background(), foundFor(p)); err != nil {
		t.Fatalf("start: %v", err)
	}
}
