package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/coverage"
)

// coverageFlags are the flags of `mcptest coverage`.
type coverageFlags struct {
	serverFlags
	toolkitOutput
	serverName string
	min        float64
	envFiles   []string
}

func cmdCoverage(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f coverageFlags
	fs := newFlagSet("coverage", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest coverage [--server CMD|URL | --server-name NAME] [flags] SUITE.yml...")
		fmt.Fprintln(stderr, "Lists the tools, resources and prompts the server offers that no test of the suites touches.")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.StringVar(&f.serverName, "server-name", "", "the suites' server to list and count tests for (needed when they declare several)")
	fs.Float64Var(&f.min, "min", -1, "fail (exit 1) when the coverage of any kind the server offers is below this percentage")
	fs.StringArrayVar(&f.envFiles, "env-file", nil, "read variables from this dotenv file, after the .env beside the suite (repeatable)")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "mcptest coverage: no suite given; usage: mcptest coverage [--server CMD|URL] SUITE.yml...")
		return 2
	}
	if f.min > 100 {
		fmt.Fprintf(stderr, "mcptest coverage: --min %g: want a percentage from 0 to 100\n", f.min)
		return 2
	}
	suites, err := config.LoadFilesWith(fs.Args(), config.Options{EnvFiles: f.envFiles})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	target, name, err := f.coverageTarget(suites)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest coverage: %v\n", err)
		return 2
	}
	var secrets []string
	for _, s := range suites {
		secrets = append(secrets, s.Secrets...)
	}
	tr, code := startToolRun(ctx, "coverage", &f.toolkitOutput, target, secrets, 30*time.Second, stdout, stderr)
	if tr == nil {
		return code
	}
	defer tr.Close()
	tr.run.Suites = fs.Args()
	listing, code, ok := tr.listing(ctx)
	if !ok {
		return code
	}
	res := coverage.Compute(listing, coverage.Collect(suites, name))
	tr.report(ctx, res.Tests(f.min))
	code = tr.finish(ctx, true, res.Table)
	return code
}

// coverageTarget picks the server: --server when given (every test of the
// suites counts), else the suites' one server, or the one --server-name
// names (only its tests count).
func (f *coverageFlags) coverageTarget(suites []*config.Suite) (toolkit.Target, string, error) {
	if f.server != "" {
		t, err := f.target()
		return t, f.serverName, err
	}
	byName := map[string]*config.Server{}
	for _, s := range suites {
		for n, srv := range s.Servers {
			byName[n] = srv
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	name := f.serverName
	switch {
	case name != "" && byName[name] == nil:
		return toolkit.Target{}, "", fmt.Errorf("--server-name %s: the suites declare no such server (they declare %s)", name, strings.Join(names, ", "))
	case name == "" && len(names) == 1:
		name = names[0]
	case name == "":
		return toolkit.Target{}, "", fmt.Errorf("the suites declare %d servers (%s): pick one with --server-name, or give --server", len(names), strings.Join(names, ", "))
	}
	t, err := targetOf(byName[name], f.targetVersion)
	return t, name, err
}

// targetOf turns a suite's server into a target.
func targetOf(s *config.Server, revision string) (toolkit.Target, error) {
	t := toolkit.Target{ProtocolVersion: revision, ClientVersion: version}
	switch s.Kind {
	case config.URLServer:
		t.URL = s.URL
		for _, h := range s.Headers {
			v := h.Value
			if h.Env != "" {
				v = os.Getenv(h.Env)
				t.Secrets = append(t.Secrets, v)
			}
			t.Headers = append(t.Headers, session.Header{Name: h.Name, Value: v, Env: h.Env})
		}
		if s.Auth != nil && s.Auth.BearerTokenEnv != "" {
			t.BearerEnv, t.BearerToken = s.Auth.BearerTokenEnv, os.Getenv(s.Auth.BearerTokenEnv)
			t.Secrets = append(t.Secrets, t.BearerToken)
		} else if s.Auth != nil {
			return t, fmt.Errorf("server %s uses OAuth, which coverage does not support yet; give --server", s.Name)
		}
	case config.StdioServer:
		t.Command, t.Env = s.Command, s.Env
	default:
		return t, fmt.Errorf("server %s replays a cassette; coverage needs a live server: give --server", s.Name)
	}
	return t, nil
}
