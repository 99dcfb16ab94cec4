package pluginrpc

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/mcptest/mcptest/sdk/contract"
)

// A plugin binary speaks go-plugin's gRPC protocol, as go-plugin's client
// in the host expects it, but is served by this file rather than by
// go-plugin's Serve. go-plugin's server side links net/rpc, encoding/gob,
// html/template, yamux, TLS and certificate generation, and the protobuf
// descriptor machinery behind gRPC reflection, whose package
// initialisation every plugin paid at every start; and it starts work the
// host does not use: two pipes and goroutines that forward what the
// plugin prints over a gRPC stream, a reflection service, a broker
// goroutine. What is kept is what go-plugin's client relies on:
//
//   - the magic cookie check and the protocol version negotiation;
//   - a Unix socket (TCP on Windows) in PLUGIN_UNIX_SOCKET_DIR, made
//     group-writable for PLUGIN_UNIX_SOCKET_GROUP;
//   - the handshake line on stdout:
//     core-version|app-version|network|address|grpc|
//   - the health, controller (Shutdown), stdio and broker services
//     (gpservices.go);
//   - interrupts ignored, so Ctrl-C reaches the host, which decides when
//     a plugin stops (an interrupted run still writes its reports).
//
// Left out, because mcptest's host does not ask for them: TLS (a host
// that sets PLUGIN_CLIENT_CERT for go-plugin's AutoMTLS fails at connect)
// and the multiplexed broker (a host that sets PLUGIN_MULTIPLEX_GRPC is
// told, by the absent seventh handshake field, that it is not supported).
//
// After the handshake, os.Stdout is pointed at stderr: the host reads the
// plugin's stderr itself (its log, a crash trace, the tail shown when the
// plugin fails), so what plugin code prints reaches it there, in order and
// without a forwarding stream that could lose the last lines.

// coreProtocolVersion is go-plugin's own protocol version, the first field
// of the handshake line.
const coreProtocolVersion = 1

// Environment variables of go-plugin's protocol.
const (
	envProtocolVersions = "PLUGIN_PROTOCOL_VERSIONS"
	envUnixSocketDir    = "PLUGIN_UNIX_SOCKET_DIR"
	envUnixSocketGroup  = "PLUGIN_UNIX_SOCKET_GROUP"
)

// errNotFromHost is the start of a plugin run by hand rather than by a
// host.
var errNotFromHost = errors.New("this binary is an mcptest plugin: mcptest starts it (run it with the argument describe to see what it offers)")

// serveProcess serves p as a plugin process until the host stops it.
func serveProcess(p *contract.Plugin, logger hclog.Logger) error {
	if os.Getenv(Handshake.MagicCookieKey) != Handshake.MagicCookieValue {
		return errNotFromHost
	}
	version, err := negotiateVersion(os.Getenv(envProtocolVersions))
	if err != nil {
		return err
	}
	lis, err := listen()
	if err != nil {
		return err
	}
	s := newServer(p, logger)
	// Ctrl-C reaches the whole foreground process group; the host stops
	// its plugins itself. Notify rather than Ignore: an ignored signal
	// stays ignored in the programs a plugin runs.
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	go func() {
		for range interrupts {
		}
	}()
	served := make(chan error, 1)
	go func() { served <- s.Serve(lis) }()
	line := fmt.Sprintf("%d|%d|%s|%s|grpc|\n", coreProtocolVersion, version, lis.Addr().Network(), lis.Addr().String())
	if _, err := os.Stdout.WriteString(line); err != nil {
		s.Stop()
		return fmt.Errorf("write the handshake: %w", err)
	}
	os.Stdout = os.Stderr
	if err := <-served; err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// negotiateVersion picks the protocol version to speak from the host's
// list. A host that offers none of ours is told ours anyway, as go-plugin
// does: the host then reports the mismatch, naming both versions.
func negotiateVersion(offered string) (int, error) {
	for _, s := range strings.Split(offered, ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && v == contract.ProtocolVersion {
			return v, nil
		}
	}
	return contract.ProtocolVersion, nil
}

// listen opens the plugin's listener: a fresh Unix socket in the folder
// the host chose (the temporary folder otherwise), or a loopback TCP port
// on Windows. A Unix socket made by Listen is unlinked when it is closed.
func listen() (net.Listener, error) {
	if runtime.GOOS == "windows" {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("listen: %w", err)
		}
		return lis, nil
	}
	path, lis, err := listenUnix(os.Getenv(envUnixSocketDir))
	if err != nil {
		return nil, err
	}
	if group := os.Getenv(envUnixSocketGroup); group != "" {
		if err := shareWithGroup(path, group); err != nil {
			_ = lis.Close()
			return nil, err
		}
	}
	return lis, nil
}

// socketAttempts bounds the random names listenUnix tries.
const socketAttempts = 16

// listenUnix listens on a Unix socket of a random name in dir (the
// temporary folder when dir is ""). Binding creates the socket file and
// fails if the name is taken, so a name is tried without first creating
// and removing a file to reserve it, three system calls fewer at every
// start.
func listenUnix(dir string) (string, net.Listener, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	var err error
	for range socketAttempts {
		path := filepath.Join(dir, "plugin"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		var lis net.Listener
		lis, err = net.Listen("unix", path)
		if err == nil {
			return path, lis, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
	}
	return "", nil, fmt.Errorf("listen: %w", err)
}

// shareWithGroup gives group (a name or a numeric id) read and write
// access to the socket at path, as go-plugin does when the host asks for
// it.
func shareWithGroup(path, group string) error {
	gid, err := strconv.Atoi(group)
	if err != nil {
		gid, err = lookupGroup(group)
		if err != nil {
			return fmt.Errorf("%s=%q: %w", envUnixSocketGroup, group, err)
		}
	}
	if err := os.Chown(path, -1, gid); err != nil {
		return fmt.Errorf("give the plugin socket to group %s: %w", group, err)
	}
	if err := os.Chmod(path, 0o660); err != nil {
		return fmt.Errorf("make the plugin socket group-writable: %w", err)
	}
	return nil
}

// lookupGroup finds a group's id by name in /etc/group, without os/user
// (and the cgo or NSS paths it may take).
func lookupGroup(name string) (int, error) {
	return lookupGroupIn(filepath.Join("/etc", "group"), name)
}

// maxGroupFile bounds the group file lookupGroupIn reads: a real one is a
// few kilobytes.
const maxGroupFile = 4 << 20

// lookupGroupIn finds a group's id by name in the group file at path. It
// reads only a regular file (opening a FIFO would block the plugin's
// start) and at most maxGroupFile bytes of it.
func lookupGroupIn(path, name string) (int, error) {
	if fi, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("look up the group: %w", err)
	} else if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("look up the group: %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("look up the group: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGroupFile+1))
	if err != nil {
		return 0, fmt.Errorf("look up the group: %w", err)
	}
	if len(b) > maxGroupFile {
		return 0, fmt.Errorf("look up the group: %s is over %d bytes", path, maxGroupFile)
	}
	for line := range strings.Lines(string(b)) {
		fields := strings.Split(strings.TrimSpace(line), ":")
		if len(fields) >= 3 && fields[0] == name {
			return strconv.Atoi(fields[2])
		}
	}
	return 0, fmt.Errorf("no group %q in %s", name, path)
}
