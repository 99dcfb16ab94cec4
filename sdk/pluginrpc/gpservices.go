package pluginrpc

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/mcptest/mcptest/sdk/contract"
)

// The services go-plugin's client expects of every plugin besides the
// plugin's own, under go-plugin's names (package "plugin" of its protocol
// files), served without go-plugin (gpserver.go says why):
//
//   - grpc.health.v1.Health, answering SERVING for "plugin";
//   - plugin.GRPCController/Shutdown, which stops the server so the
//     process exits (mcptest's host kills a plugin rather than asking,
//     but another host may ask);
//   - plugin.GRPCStdio/StreamStdio, which go-plugin's client opens at
//     connect to receive what the plugin prints. Printed output goes to
//     stderr instead (gpserver.go), so the stream stays open and sends
//     nothing until the host hangs up;
//   - plugin.GRPCBroker/StartStream, on which the host announces the
//     address of each service it offers the plugin (the Host service),
//     by id, for brokerConns.Dial.

// goPluginHealthService is the name go-plugin's client checks health for.
const goPluginHealthService = "plugin"

// brokerWait bounds how long Dial waits for the host to announce a
// service, as go-plugin's broker does.
const brokerWait = 5 * time.Second

// registerGoPluginServices registers go-plugin's services on s and gives
// srv the broker.
func registerGoPluginServices(s *grpc.Server, srv *pluginServer) {
	h := health.NewServer()
	h.SetServingStatus(goPluginHealthService, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
	s.RegisterService(&controllerDesc, s)
	s.RegisterService(&stdioDesc, nil)
	b := &brokerConns{infos: map[uint32]*connInfo{}, waits: map[uint32]chan struct{}{}}
	s.RegisterService(&brokerDesc, b)
	srv.setBroker(b)
}

var controllerDesc = grpc.ServiceDesc{
	ServiceName: "plugin.GRPCController",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Shutdown",
		Handler: func(srv any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			if err := dec(new(emptypb.Empty)); err != nil {
				return nil, err
			}
			// Stop ends every call, this one included: answer first.
			go srv.(*grpc.Server).Stop()
			return new(emptypb.Empty), nil
		},
	}},
	Metadata: "grpc_controller.proto",
}

var stdioDesc = grpc.ServiceDesc{
	ServiceName: "plugin.GRPCStdio",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{
		StreamName: "StreamStdio",
		Handler: func(_ any, stream grpc.ServerStream) error {
			<-stream.Context().Done()
			return nil
		},
		ServerStreams: true,
	}},
	Metadata: "grpc_stdio.proto",
}

var brokerDesc = grpc.ServiceDesc{
	ServiceName: "plugin.GRPCBroker",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{
		StreamName: "StartStream",
		Handler: func(srv any, stream grpc.ServerStream) error {
			b := srv.(*brokerConns)
			for {
				ci := new(connInfo)
				if err := stream.RecvMsg(ci); err != nil {
					return nil
				}
				b.announce(ci)
			}
		},
		ServerStreams: true,
		ClientStreams: true,
	}},
	Metadata: "grpc_broker.proto",
}

// connInfo is go-plugin's ConnInfo message: the address of a service the
// host offers under an id. Its fourth field (knock) is used only by
// go-plugin's multiplexed broker, which mcptest's host does not ask for.
// It is a message described by its struct tags alone, so it is not
// registered under go-plugin's name (a process that also links go-plugin,
// such as a test binary, would have two).
type connInfo struct {
	ServiceId uint32 `protobuf:"varint,1,opt,name=service_id,json=serviceId,proto3"` //nolint:revive // protobuf's name
	Network   string `protobuf:"bytes,2,opt,name=network,proto3"`
	Address   string `protobuf:"bytes,3,opt,name=address,proto3"`
}

func (m *connInfo) Reset()         { *m = connInfo{} }
func (m *connInfo) String() string { return fmt.Sprintf("%d %s %s", m.ServiceId, m.Network, m.Address) }
func (*connInfo) ProtoMessage()    {}

// brokerConns holds the services the host announced and not yet dialled.
type brokerConns struct {
	mu    sync.Mutex
	infos map[uint32]*connInfo
	waits map[uint32]chan struct{}
}

// announce records a service the host offers and wakes its Dial.
func (b *brokerConns) announce(ci *connInfo) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.infos[ci.ServiceId] = ci
	if ch, ok := b.waits[ci.ServiceId]; ok {
		close(ch)
		delete(b.waits, ci.ServiceId)
	}
}

// Dial connects to the service the host announced under id, waiting for
// the announcement up to brokerWait.
func (b *brokerConns) Dial(id uint32) (*grpc.ClientConn, error) {
	b.mu.Lock()
	ci, ok := b.infos[id]
	if !ok {
		ch, waiting := b.waits[id]
		if !waiting {
			ch = make(chan struct{})
			b.waits[id] = ch
		}
		b.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(brokerWait):
			return nil, fmt.Errorf("the host did not announce service %d within %s", id, brokerWait)
		}
		b.mu.Lock()
		ci = b.infos[id]
	}
	delete(b.infos, id)
	b.mu.Unlock()
	switch ci.Network {
	case "unix", "tcp":
	default:
		return nil, fmt.Errorf("the host announced service %d on a %q address", id, ci.Network)
	}
	network, address := ci.Network, ci.Address
	dial := func(ctx context.Context, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, address)
	}
	opts := append(TransportDialOptions(),
		grpc.WithContextDialer(dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(contract.MaxMessageBytes),
			grpc.MaxCallSendMsgSize(contract.MaxMessageBytes),
			ClientCodec(),
		))
	conn, err := grpc.NewClient("passthrough:///host", opts...)
	if err != nil {
		return nil, fmt.Errorf("dial the host's service %d: %w", id, err)
	}
	return conn, nil
}
