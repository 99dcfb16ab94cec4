package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/stdiowire"
)

// DefaultProtocolVersion is the MCP revision a session asks for when
// StdioConfig.ProtocolVersion is empty: the last revision of the legacy era,
// which opens with an initialize handshake.
const DefaultProtocolVersion = "2025-11-25"

// legacyVersions are the revisions that use the initialize handshake.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// LegacyProtocolVersions returns the revisions of the legacy era, the
// ones that use the initialize handshake, newest first. ProtocolVersions
// adds the modern ones.
func LegacyProtocolVersions() []string { return slices.Clone(legacyVersions) }

// Defaults for the zero values of StdioConfig's durations and limits.
const (
	// DefaultStderrLimit is how many bytes of a server's stderr a session
	// keeps when StdioConfig.StderrLimit is zero.
	DefaultStderrLimit = stdiowire.DefaultStderrLimit
	// DefaultInitTimeout bounds the initialize handshake (a server's
	// start) when the suite sets no performance.default_timeout_ms.
	DefaultInitTimeout = 30 * time.Second
	// DefaultCallTimeout bounds a call whose context has no deadline.
	DefaultCallTimeout = 60 * time.Second
	// DefaultMaxMessageBytes bounds one line of the server's stdout.
	DefaultMaxMessageBytes = 256 << 20
)

// StdioConfig describes an MCP server to start as a child process and talk
// to over its stdin and stdout.
type StdioConfig struct {
	// Name identifies the server in errors and reports. It defaults to the
	// base name of Command[0].
	Name string
	// Command is the program and its arguments. A relative program path
	// with a slash is resolved against Dir; a bare name is looked up in PATH.
	Command []string
	// Env holds variables added to os.Environ() for the server; they
	// override inherited variables of the same name.
	Env map[string]string
	// Dir is the server's working directory; empty means mcptest's own.
	Dir string
	// ProtocolVersion is the revision to pin, one of ProtocolVersions():
	// a legacy one opens with initialize, a modern one (2026-07-28) with
	// server/discover. Empty means DefaultProtocolVersion. The session
	// never probes.
	ProtocolVersion string
	// ClientVersion is sent as clientInfo.version in initialize; empty
	// means "dev".
	ClientVersion string
	// Secrets are masked in the session's frames before they are cut to
	// FrameLimit (the suite's secrets: a server may have them from its
	// environment or arguments and echo them back).
	Secrets []string
	// StderrLimit is how many bytes of the server's stderr are kept for
	// StderrTail and error messages; zero means DefaultStderrLimit.
	StderrLimit int
	// InitTimeout bounds the initialize handshake; zero means
	// DefaultInitTimeout.
	InitTimeout time.Duration
	// InitTimeoutFrom says where InitTimeout came from, such as
	// "performance.default_timeout_ms in suite.yml", for the error of a
	// start that ran out of time; empty means the default.
	InitTimeoutFrom string
	// CallTimeout bounds a call whose context has no deadline; zero means
	// DefaultCallTimeout, a negative value means no bound.
	CallTimeout time.Duration
	// MaxMessageBytes bounds one line the server writes to stdout; a longer
	// one is discarded and the call it answers fails with ErrBadResponse.
	// Zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
	// Client holds the client features offered to the server: what
	// initialize declares and the mocks that answer its requests.
	Client ClientOptions
}

// withDefaults validates cfg and fills in its zero values.
func (cfg StdioConfig) withDefaults() (StdioConfig, error) {
	if len(cfg.Command) == 0 || strings.TrimSpace(cfg.Command[0]) == "" {
		return cfg, errors.New("stdio server: empty command")
	}
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Command[0])
	}
	if cfg.ProtocolVersion == "" {
		cfg.ProtocolVersion = DefaultProtocolVersion
	}
	if !slices.Contains(ProtocolVersions(), cfg.ProtocolVersion) {
		return cfg, fmt.Errorf("stdio server %q: protocol version %q is not supported; use one of %s",
			cfg.Name, cfg.ProtocolVersion, strings.Join(ProtocolVersions(), ", "))
	}
	if cfg.ClientVersion == "" {
		cfg.ClientVersion = "dev"
	}
	if cfg.StderrLimit <= 0 {
		cfg.StderrLimit = DefaultStderrLimit
	}
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = DefaultInitTimeout
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return cfg, nil
}

// options returns the settings every transport shares.
func (cfg StdioConfig) options() options {
	return options{
		name:            cfg.Name,
		protocolVersion: cfg.ProtocolVersion,
		clientVersion:   cfg.ClientVersion,
		initTimeout:     cfg.InitTimeout,
		initFrom:        cfg.InitTimeoutFrom,
		callTimeout:     cfg.CallTimeout,
		maxMessageBytes: cfg.MaxMessageBytes,
		client:          cfg.Client,
	}
}

// startLimit names the limit a start ran out of and where it came from,
// as " (start limit 2s, from ...)" text for timeout errors, so a user
// knows what to change.
func (o options) startLimit() string {
	if o.initFrom == "" {
		return fmt.Sprintf(" (start limit %s, the default; performance.default_timeout_ms sets it)", o.initTimeout)
	}
	return fmt.Sprintf(" (start limit %s, from %s)", o.initTimeout, o.initFrom)
}
