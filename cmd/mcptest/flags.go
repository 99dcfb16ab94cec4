package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/plugin"
)

// pluginFlags are the flags of every command that touches plugins.
type pluginFlags struct {
	dirs      []string
	trustDirs []string
	timeout   time.Duration
	logLevel  string
}

func (p *pluginFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&p.dirs, "plugin-dir", nil, "search this plugin directory first (repeatable)")
	fs.StringArrayVar(&p.trustDirs, "trust-plugin-dir", nil, "use plugins in this directory (and below) even if another user owns or may write them (repeatable)")
	fs.DurationVar(&p.timeout, "plugin-timeout", 60*time.Second, "deadline of every plugin call; a plugin that misses it is stopped")
	fs.StringVar(&p.logLevel, "log-level", "warn", "log level of mcptest and its plugins: trace, debug, info, warn, error")
}

func (p *pluginFlags) sources() []plugin.Source {
	return plugin.Sources(plugin.SearchOptions{Dirs: p.dirs, TrustedDirs: p.trustDirs})
}

func (p *pluginFlags) logger(stderr io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "mcptest", Level: hclog.LevelFromString(p.logLevel), Output: stderr})
}

func (p *pluginFlags) launcher(stderr io.Writer) *plugin.ExecLauncher {
	return &plugin.ExecLauncher{Logger: p.logger(stderr), LogLevel: p.logLevel}
}

// newFlagSet returns a flag set that reports its own errors through the
// returned value rather than exiting.
func newFlagSet(name string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args; it returns (code, false) when the command should
// stop: 0 after --help, 2 after a bad flag.
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, false
		}
		fmt.Fprintf(stderr, "mcptest %s: %v\n", fs.Name(), err)
		return 2, false
	}
	return 0, true
}

// warnProblems prints plugin folders that could not be read and plugins
// refused by the ownership checks; a run that needs a refused plugin fails
// when it resolves the key.
func warnProblems(reg *plugin.Registry, stderr io.Writer) {
	for _, p := range reg.Problems {
		fmt.Fprintf(stderr, "mcptest: warning: ignoring plugin at %s: %v\n", p.Path, p.Err)
	}
	for _, f := range reg.Untrusted() {
		fmt.Fprintf(stderr, "mcptest: warning: plugin %s at %s is not trusted and will not run; `mcptest plugins verify` says why\n", f.Label(), f.Dir)
	}
}

// outputFlags are the reporting and concurrency flags of the commands that
// run suites (run, record).
type outputFlags struct {
	reporters []string
	output    string
	jobs      int
	noColor   bool
	wire      string
}

func (o *outputFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&o.reporters, "reporter", nil, "report format, optionally with a file: NAME or NAME=PATH (repeatable; default pretty)")
	fs.StringVarP(&o.output, "output", "o", "", "write the single reporter's output to this file instead of stdout")
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "requests in flight to servers at once (default 4 x CPUs; 1 runs tests in order)")
	fs.BoolVar(&o.noColor, "no-color", false, "never colour the output")
	fs.StringVar(&o.wire, "wire", "failures", "which tests keep their wire frames in the report: failures or all")
}

// wireAll reads --wire: true for all, false for failures.
func (o *outputFlags) wireAll() (bool, error) {
	switch o.wire {
	case "failures", "":
		return false, nil
	case "all":
		return true, nil
	}
	return false, fmt.Errorf("--wire %q: want failures or all", o.wire)
}
