package sdk

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/hashicorp/go-hclog"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// LogLevelEnv names the environment variable that sets a plugin's log level
// (trace, debug, info, warn, error); the host passes its own level through.
const LogLevelEnv = "MCPTEST_PLUGIN_LOG_LEVEL"

// Serve runs the plugin until the host disconnects. Run with the single
// argument "describe", it prints the plugin's Description as JSON and
// exits instead; that is how `mcptest plugins install` writes a manifest.
// Serve does not return.
func Serve(p *Plugin) {
	if err := p.Validate(); err != nil {
		fmt.Fprintf(os.Stderr, "mcptest plugin: %v\n", err)
		os.Exit(2)
	}
	if len(os.Args) == 2 && os.Args[1] == "describe" {
		if err := WriteDescription(os.Stdout, p); err != nil {
			fmt.Fprintf(os.Stderr, "mcptest plugin: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	prepareRuntime(p)
	logger := NewLogger(p.Name)
	servedLogger = logger
	pluginrpc.Serve(p, logger)
	os.Exit(0)
}

// WriteDescription writes the plugin's Description as indented JSON.
func WriteDescription(w io.Writer, p *Plugin) error {
	b, err := json.MarshalIndent(p.Describe(), "", "  ")
	if err != nil {
		return fmt.Errorf("encode description: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// prepareRuntime applies the runtime settings the plugin asked for; with
// TuneGC unset it changes nothing.
func prepareRuntime(p *Plugin) {
	if p.TuneGC {
		tuneGC()
	}
}

// tuneGC raises the garbage collector's target unless the user set GOGC,
// with a soft memory limit unless GOMEMLIMIT is set (Plugin.TuneGC). A
// plugin's live heap is tiny, so the default target has it collect every
// few megabytes: many times per 1,000-item batch. The limit makes it
// collect harder only when memory actually grows.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(256 << 20)
	}
}

// servedLogger is the logger of the plugin being served.
var servedLogger = hclog.NewNullLogger()

// Logger returns the served plugin's logger. Use it rather than printing:
// its lines are structured, and mcptest re-levels them under the plugin's
// name. (What a plugin prints, to stdout or stderr, still reaches the
// stderr mcptest keeps for crash reports; stdout is pointed there once
// the handshake line is written.)
func Logger() hclog.Logger { return servedLogger }

// NewLogger returns the logger a plugin should use: hclog JSON on stderr,
// which the host parses and re-levels under the plugin's name. Stdout
// carries the go-plugin handshake line.
func NewLogger(name string) hclog.Logger {
	level := hclog.LevelFromString(os.Getenv(LogLevelEnv))
	if level == hclog.NoLevel {
		level = hclog.Warn
	}
	return hclog.New(&hclog.LoggerOptions{
		Name:       name,
		Level:      level,
		Output:     os.Stderr,
		JSONFormat: true,
	})
}
