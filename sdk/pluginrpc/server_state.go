package pluginrpc

import (
	"sync"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// pluginServer is the plugin-side state shared by every kind's service.
type pluginServer struct {
	plugin *contract.Plugin
	logger hclog.Logger

	mu       sync.Mutex
	broker   dialer
	hostID   uint32
	host     contract.Host
	hostErr  error
	hostOnce sync.Once
	runJSON  []byte
}

func newPluginServer(p *contract.Plugin, logger hclog.Logger) *pluginServer {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &pluginServer{plugin: p, logger: logger}
}

// dialer connects to a service the host offers the plugin under an id
// (brokerConns).
type dialer interface {
	Dial(id uint32) (*grpc.ClientConn, error)
}

func (s *pluginServer) setBroker(b dialer) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broker == nil {
		s.broker = b
	}
}

func (s *pluginServer) configure(hostID uint32, runJSON []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hostID = hostID
	s.runJSON = runJSON
}

// hostClient returns the Host the core serves over the broker, dialled on
// first use; plugins that never call it never open the connection.
func (s *pluginServer) hostClient() contract.Host {
	s.mu.Lock()
	id, broker := s.hostID, s.broker
	s.mu.Unlock()
	if id == 0 || broker == nil {
		return noHost{}
	}
	s.hostOnce.Do(func() {
		conn, err := broker.Dial(id)
		if err != nil {
			s.hostErr = err
			return
		}
		s.host = &hostGRPCClient{c: pluginv1.NewHostClient(conn)}
	})
	if s.host == nil {
		return brokenHost{err: s.hostErr}
	}
	return s.host
}
