package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

// suiteFlags are the flags that change how suites load: dotenv files and
// server overrides. run and validate take them.
type suiteFlags struct {
	configs         []string
	envFiles        []string
	serverURL       string
	serverCommand   string
	serverBearerEnv string
	serverConfig    string
	oauth           bool
	http            httpFlags
	targetVersion   string
}

func (f *suiteFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.configs, "config", nil, "load this suite file, as a positional SUITE.yml would (repeatable)")
	fs.StringArrayVar(&f.envFiles, "env-file", nil, "read variables from this dotenv file, after the .env beside the suite (repeatable)")
	fs.StringVar(&f.serverURL, "server-url", "", "point the server at this URL instead: [NAME=]URL")
	fs.StringVar(&f.serverCommand, "server-command", "", "start the server with this command line instead (split like a shell): [NAME=]CMD")
	fs.StringVar(&f.serverBearerEnv, "server-auth-bearer-env", "", "send the bearer token held by this environment variable: [NAME=]VAR")
	fs.StringVar(&f.serverConfig, "server-config", "", "replace the server with the one in this YAML file: [NAME=]PATH")
	fs.BoolVar(&f.oauth, "oauth", false, "let URL servers without an auth block authorize with OAuth when they answer 401 (discovery, registration, authorization code)")
	f.http.register(fs)
	fs.StringVar(&f.targetVersion, "target-version", "", "speak this MCP protocol revision (one of the suite's target_versions when it lists them)")
}

// files returns the suites to load: those named with --config, then the
// positional arguments.
func (f *suiteFlags) files(args []string) []string {
	if len(f.configs) == 0 {
		return args
	}
	return append(append([]string(nil), f.configs...), args...)
}

// options returns the load options of the flags.
func (f *suiteFlags) options() config.Options {
	return config.Options{
		EnvFiles: f.envFiles,
		Servers: config.ServerOverrides{
			URL:       f.serverURL,
			Command:   f.serverCommand,
			BearerEnv: f.serverBearerEnv,
			Config:    f.serverConfig,
			OAuth:     f.oauth,
		},
	}
}

// selectFlags are the flags that pick the tests of a run.
type selectFlags struct {
	tags, skipTags, include, exclude []string
	profile                          string
}

func (f *selectFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.tags, "tag", nil, "run only tests with this tag (repeatable; any of them)")
	fs.StringArrayVar(&f.skipTags, "skip-tag", nil, "leave out tests with this tag (repeatable; wins over --tag)")
	fs.StringArrayVar(&f.include, "include", nil, "run only tests whose name matches: a substring, or a glob with * ? [...] (repeatable)")
	fs.StringArrayVar(&f.exclude, "exclude", nil, "leave out tests whose name matches (repeatable; wins over --include)")
	fs.StringVar(&f.profile, "profile", config.ProfileStandard, "quick (tests marked quick), standard (all but full) or full (everything)")
}

// selection returns the selection of the flags.
func (f *selectFlags) selection() *plan.Selection {
	return &plan.Selection{Tags: f.tags, SkipTags: f.skipTags, Include: f.include, Exclude: f.exclude, Profile: f.profile}
}

// printLoadNotes prints the warnings of the suites and, when server
// overrides apply, one banner line naming them, so a misconfigured CI job
// shows before anything runs.
func printLoadNotes(suites []*config.Suite, stderr io.Writer) {
	var overrides []string
	for _, s := range suites {
		for _, w := range s.Warnings {
			fmt.Fprintf(stderr, "mcptest: warning: %v\n", w)
		}
		for _, o := range s.Overrides {
			if len(suites) > 1 {
				o = s.File + ": " + o
			}
			overrides = append(overrides, o)
		}
	}
	if len(overrides) > 0 {
		fmt.Fprintf(stderr, "mcptest: server overrides in effect: %s\n", strings.Join(overrides, "; "))
	}
}

// printSelection says how many tests a selection left out, when it left
// any out.
func printSelection(p *plan.Plan, sel *plan.Selection, stderr io.Writer) {
	if sel == nil || p.Selected == p.Total {
		return
	}
	fmt.Fprintf(stderr, "mcptest: selected %d of %d tests (%s)\n", p.Selected, p.Total, sel.Describe())
}

// printGaps lists, for validate, what the suites use that `mcptest run`
// cannot execute yet.
func printGaps(p *plan.Plan, stderr io.Writer) {
	for _, g := range p.Gaps {
		fmt.Fprintf(stderr, "mcptest: note: %v; mcptest run refuses it for now\n", g)
	}
}
