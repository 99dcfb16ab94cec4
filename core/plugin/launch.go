package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	procgroup "github.com/mcptest/mcptest/internal/proc"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

// Instance is one running plugin, however it was started.
type Instance interface {
	// Dispense returns the host-side client of a kind (pluginrpc.KindInfo,
	// sdk.KindMatcher, ...).
	Dispense(kind string) (any, error)
	// Kill stops the plugin and waits for it to exit.
	Kill()
	// Exited reports whether the plugin process has ended.
	Exited() bool
	// Done is closed once the plugin has ended and its stderr has been
	// read to the end, so StderrTail then holds its last words.
	Done() <-chan struct{}
	// StderrTail returns the last n lines the plugin wrote to stderr.
	StderrTail(n int) string
}

// Launcher starts plugins. ExecLauncher runs binaries; tests use in-process
// launchers built on sdk/plugintest.
type Launcher interface {
	Launch(ctx context.Context, f *Found) (Instance, error)
}

// identifier is implemented by launchers that can name the exact program
// a plugin would run as, without starting it: the identity that vetting
// verdicts are remembered by. A launcher without it is always asked.
type identifier interface {
	identity(f *Found) (string, bool)
}

// ExecLauncher starts plugin executables through go-plugin, checking the
// manifest's sha256 before exec.
type ExecLauncher struct {
	// Logger receives the plugins' re-levelled logs; nil discards them.
	Logger hclog.Logger
	// StartTimeout bounds the handshake; 0 means 10 s.
	StartTimeout time.Duration
	// LogLevel is passed to plugins as MCPTEST_PLUGIN_LOG_LEVEL.
	LogLevel string
	// SkipChecksum disables the sha256 check (dev overrides only).
	SkipChecksum bool

	// digests remembers verified executables; nil means the process's
	// shared cache.
	digests *digestCache
}

// verifyDigest checks that exe hashes to the manifest's sha256, before it
// is executed. An executable verified before and unchanged since (same
// stamp) is not hashed again.
func (l *ExecLauncher) verifyDigest(f *Found, exe string) error {
	want := strings.ToLower(f.Manifest.SHA256)
	if want == "" {
		return fmt.Errorf("%w: the manifest %s has no sha256; reinstall the plugin with `mcptest plugins install`",
			ErrChecksumMismatch, f.ManifestPath)
	}
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("%w: bad sha256 in %s: want %d hex digits", ErrChecksumMismatch, f.ManifestPath, 2*sha256.Size)
	}
	cache := l.digests
	if cache == nil {
		cache = sharedDigests
	}
	if cache.verified(exe, want) {
		return nil
	}
	before, stamped := stampOf(exe)
	actual, err := FileSHA256(exe)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrPluginStart, err)
	}
	if actual != want {
		return fmt.Errorf("%w: %s has sha256 %s but the manifest %s says %s; if you rebuilt the plugin, reinstall it with `mcptest plugins install`",
			ErrChecksumMismatch, exe, actual, f.ManifestPath, f.Manifest.SHA256)
	}
	if stamped {
		cache.remember(exe, actual, before)
	}
	return nil
}

// identity returns the sha256 of f's executable when it is known without
// starting or hashing anything: the executable passes the checks made
// before every exec, and the digest cache vouches that it is unchanged
// since it was verified against the manifest. It is what the vetting
// cache keys verdicts by (vetcache.go).
func (l *ExecLauncher) identity(f *Found) (string, bool) {
	if l.SkipChecksum || !f.Manifest.SpeaksProtocol(sdk.ProtocolVersion) {
		return "", false
	}
	want := strings.ToLower(f.Manifest.SHA256)
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return "", false
	}
	exe, err := checkExecutable(f)
	if err != nil {
		return "", false
	}
	cache := l.digests
	if cache == nil {
		cache = sharedDigests
	}
	if !cache.verified(exe, want) {
		return "", false
	}
	return want, true
}

// Launch starts f's executable and returns once the handshake is done.
func (l *ExecLauncher) Launch(ctx context.Context, f *Found) (Instance, error) {
	if !f.Manifest.SpeaksProtocol(sdk.ProtocolVersion) {
		return nil, newPluginError(f, fmt.Errorf("%w: the plugin speaks protocol %v, this mcptest speaks %d; install a build of the plugin for protocol %d",
			ErrProtocolMismatch, f.Manifest.ProtocolVersions, sdk.ProtocolVersion, sdk.ProtocolVersion), "")
	}
	exe, err := checkExecutable(f)
	if err != nil {
		return nil, newPluginError(f, err, "")
	}
	if !l.SkipChecksum {
		if err := l.verifyDigest(f, exe); err != nil {
			return nil, newPluginError(f, err, "")
		}
	}
	logger := l.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	ring := newStderrRing(50)
	killed := new(atomic.Bool)
	// A start still in progress when ctx ends (the host closing: the run
	// is over or interrupted) is cut short by killing the process, so no
	// one waits out the start timeout of a plugin stalled in its
	// handshake. Once started, the plugin no longer depends on ctx: it is
	// stopped by Kill.
	procCtx, abort := context.WithCancel(context.Background())
	stopWatch := context.AfterFunc(ctx, abort)
	cmd := exec.CommandContext(procCtx, exe)
	cmd.Env = append(os.Environ(), sdk.LogLevelEnv+"="+l.LogLevel)
	procgroup.SetParentDeathSignal(cmd)
	start := l.StartTimeout
	if start == 0 {
		start = 10 * time.Second
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  hostrpc.Handshake(),
		VersionedPlugins: map[int]goplugin.PluginSet{sdk.ProtocolVersion: hostrpc.ClientPluginSet()},
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		StartTimeout:     start,
		// Stderr carries the plugin's log and any crash trace; SyncStderr
		// and SyncStdout carry what plugin code printed, which go-plugin
		// forwards over gRPC. All of it feeds the tail shown on failure.
		Stderr:          ring,
		SyncStderr:      ring,
		SyncStdout:      ring,
		Logger:          quietKill{Logger: logger.Named(f.Manifest.Name), killed: killed},
		GRPCDialOptions: hostrpc.GRPCDialOptions(),
	})
	rpc, err := client.Client()
	if !stopWatch() && err == nil {
		err = fmt.Errorf("the plugin host closed while the plugin was starting: %w", context.Cause(ctx))
	}
	if err != nil {
		client.Kill()
		return nil, newPluginError(f, l.classifyStartError(f, exe, err), ring.Tail(10))
	}
	// The info client carries go-plugin's exit signal (hostrpc's Done).
	raw, err := rpc.Dispense(pluginrpc.KindInfo)
	info, ok := raw.(*hostrpc.InfoClient)
	if err != nil || !ok {
		client.Kill()
		return nil, newPluginError(f, fmt.Errorf("%w: dispense info: %v", ErrPluginStart, err), ring.Tail(10))
	}
	return &execInstance{client: client, rpc: rpc, ring: ring, done: info.Done(), proc: cmd.Process, killed: killed,
		socket: unixSocket(client)}, nil
}

func (l *ExecLauncher) classifyStartError(f *Found, exe string, err error) error {
	switch {
	case strings.Contains(err.Error(), "incompatible API version"):
		return fmt.Errorf("%w: this mcptest speaks plugin protocol %d but the plugin answered: %v",
			ErrProtocolMismatch, sdk.ProtocolVersion, err)
	}
	return fmt.Errorf("%w: %w", ErrPluginStart, err)
}

// execInstance is a plugin process started by go-plugin.
type execInstance struct {
	client *goplugin.Client
	rpc    goplugin.ClientProtocol
	ring   *stderrRing
	done   <-chan struct{}
	// proc is the plugin's process (go-plugin runs the command given).
	proc *os.Process
	// killed is set once the host kills the plugin, so go-plugin's
	// complaints about the death it caused are not shown (quietKill).
	killed *atomic.Bool
	// socket is the path of the Unix socket the plugin listened on; a
	// plugin that exits on its own removes it, one that is killed cannot,
	// so Kill does.
	socket string
}

func (e *execInstance) Dispense(kind string) (any, error) { return e.rpc.Dispense(kind) }

// Kill ends the plugin at once and waits until it has been reaped and
// go-plugin's goroutines are done. go-plugin's own Kill asks the plugin to
// shut down and waits for it to exit on its own, which costs a few
// milliseconds at the end of every run for nothing: the host kills a
// plugin only when it is done with it (its calls answered, the reports
// acknowledged) or has given up on it (a hang), and sdk.Serve runs no
// plugin code after serving. SIGKILL first, then go-plugin's Kill finds
// the process gone, collects its exit and releases its pipes.
func (e *execInstance) Kill() {
	e.killed.Store(true)
	if e.proc != nil {
		_ = e.proc.Kill()
	}
	e.client.Kill()
	removeSocket(e.socket)
}

// unixSocket is the path of the Unix socket client's plugin serves on, or
// "" when it serves elsewhere (TCP on systems without Unix sockets).
func unixSocket(client *goplugin.Client) string {
	rc := client.ReattachConfig()
	if rc == nil || rc.Addr == nil || rc.Addr.Network() != "unix" {
		return ""
	}
	return rc.Addr.String()
}

// removeSocket deletes the socket file a killed plugin left, and nothing
// else: a path that is no longer a socket (reused for something else) is
// left alone.
func removeSocket(path string) {
	if path == "" {
		return
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		_ = os.Remove(path)
	}
}

func (e *execInstance) Exited() bool            { return e.client.Exited() }
func (e *execInstance) StderrTail(n int) string { return e.ring.Tail(n) }
func (e *execInstance) Done() <-chan struct{}   { return e.done }

// quietKill is a plugin's logger that demotes to debug what go-plugin
// logs about an exit the host caused on purpose (execInstance.Kill): "plugin
// process exited" with "signal: killed" is an error only when nobody
// asked for it.
type quietKill struct {
	hclog.Logger
	killed *atomic.Bool
}

// Error logs msg, at debug level when it is go-plugin's note on a plugin
// the host killed.
func (q quietKill) Error(msg string, args ...any) {
	if q.killed.Load() && msg == "plugin process exited" {
		q.Logger.Debug(msg, args...)
		return
	}
	q.Logger.Error(msg, args...)
}

// Warn logs msg, at debug level when it is go-plugin's note on stopping a
// plugin the host killed.
func (q quietKill) Warn(msg string, args ...any) {
	if q.killed.Load() && (msg == "plugin failed to exit gracefully" || msg == "error closing client during Kill") {
		q.Logger.Debug(msg, args...)
		return
	}
	q.Logger.Warn(msg, args...)
}

// CleanupClients kills every plugin process still running; main calls it
// on the way out, whatever the path.
func CleanupClients() { goplugin.CleanupClients() }
