package pluginrpc

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/mcptest/mcptest/sdk/contract"
)

// Each listener gets a socket of its own in the folder asked for, and
// closing it removes the socket file: a plugin leaves nothing behind.
func TestListenUnixMakesAndRemovesItsSocket(t *testing.T) {
	dir := t.TempDir()
	p1, l1, err := listenUnix(dir)
	if err != nil {
		t.Fatal(err)
	}
	p2, l2, err := listenUnix(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p1 == p2 || filepath.Dir(p1) != dir || filepath.Dir(p2) != dir {
		t.Fatalf("sockets %s and %s, want two in %s", p1, p2, dir)
	}
	for _, l := range []net.Listener{l1, l2} {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("closed listeners left %v", entries)
	}
	if _, _, err := listenUnix(filepath.Join(dir, "missing")); err == nil {
		t.Error("listening in a missing folder succeeded")
	}
}

// A host that offers only other protocol versions is still told ours, so
// it can name both in its error.
func TestNegotiateVersion(t *testing.T) {
	for _, offered := range []string{"", "1", "2,1", " 1 ,3", "2", "x"} {
		if v, err := negotiateVersion(offered); err != nil || v != contract.ProtocolVersion {
			t.Errorf("offered %q: got %d, %v", offered, v, err)
		}
	}
}

// go-plugin's Shutdown, which a host may call instead of killing the
// plugin, stops the server, so a plugin process exits.
func TestControllerShutdownStopsTheServer(t *testing.T) {
	addr := make(chan net.Addr, 1)
	closed := make(chan struct{})
	p := &contract.Plugin{Name: "p", Version: "1.0.0", Reporters: map[string]contract.Reporter{}}
	go ServeInProcess(context.Background(), p, addr, closed)
	a := <-addr
	conn, err := grpc.NewClient("unix://"+a.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The answer may be lost to the stop itself; the stop is what counts.
	_ = conn.Invoke(ctx, "/plugin.GRPCController/Shutdown", &emptypb.Empty{}, &emptypb.Empty{})
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still serves 5s after Shutdown")
	}
}
