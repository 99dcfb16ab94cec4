package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/oauth"
	"github.com/mcptest/mcptest/core/servers"
)

// cmdAuth is `mcptest auth login|status|logout`: the interactive OAuth
// login whose token later runs use, and the token cache.
func cmdAuth(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: mcptest auth login SERVER [SUITE.yml...] | status [SERVER] | logout SERVER|--all")
		fmt.Fprintln(stderr, "SERVER is a server of the suites (by name) or an MCP server URL.")
		fmt.Fprintf(stderr, "login opens a browser ($%s, else $BROWSER, else the system's) on the authorization page\n", oauth.BrowserEnv)
		fmt.Fprintln(stderr, "and caches the token, 0600, in the user's configuration directory; runs then use it and refresh it.")
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	switch args[0] {
	case "login":
		return authLogin(ctx, args[1:], stdout, stderr)
	case "status":
		return authStatus(args[1:], stdout, stderr)
	case "logout":
		return authLogout(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		usage()
		return 0
	}
	fmt.Fprintf(stderr, "mcptest auth: unknown subcommand %q\n", args[0])
	usage()
	return 2
}

// authLogin authorizes one server through the browser and caches the
// token. Only where it went is printed, never a secret.
func authLogin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var sf suiteFlags
	fs := newFlagSet("auth login", stderr)
	noBrowser := fs.Bool("no-browser", false, "print the authorization URL instead of opening a browser")
	sf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "mcptest auth login: no server given; usage: mcptest auth login SERVER [SUITE.yml...]")
		return 2
	}
	cfg, err := loginConfig(fs.Arg(0), sf.files(fs.Args()[1:]), sf)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth login: %v\n", err)
		return 2
	}
	cfg.Version = version
	if cfg.Flow != oauth.FlowAuthorizationCode {
		// Nothing to approve: the grant runs without a person.
		cfg.Browser = nil
	} else if *noBrowser {
		cfg.Browser = func(_ context.Context, u string) error {
			fmt.Fprintf(stderr, "mcptest: open this URL to authorize:\n  %s\n", u)
			return nil
		}
	} else {
		cfg.Browser = oauth.SystemBrowser(os.Getenv)
	}
	if cfg.Cache == nil {
		c, err := oauth.DefaultCache()
		if err != nil {
			fmt.Fprintf(stderr, "mcptest auth login: %v\n", err)
			return 2
		}
		cfg.Cache = c
	}
	az, err := oauth.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth login: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "mcptest: authorizing %s (%s)\n", cfg.Server, cfg.URL)
	if err := az.Login(ctx); err != nil {
		fmt.Fprintf(stderr, "mcptest auth login: %s\n", cfg.Redact.String(err.Error()))
		return 1
	}
	fmt.Fprintf(stdout, "logged in to %s (%s); the token is cached in %s\n", cfg.Server, cfg.URL, cfg.Cache.Dir)
	return 0
}

// loginConfig returns the OAuth configuration of target: a server of the
// suites, with its auth.oauth block (or discovery and the authorization
// code flow when it has none), or a URL.
func loginConfig(target string, files []string, sf suiteFlags) (oauth.Config, error) {
	if u, err := url.Parse(target); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return oauth.Config{Server: u.Host, URL: target, Flow: oauth.FlowAuthorizationCode}, nil
	}
	if len(files) == 0 {
		return oauth.Config{}, fmt.Errorf("%q is not a URL, and no suite names it (give SUITE.yml or --config)", target)
	}
	suites, err := config.LoadFilesWith(files, sf.options())
	if err != nil {
		return oauth.Config{}, err
	}
	for _, s := range suites {
		srv := s.Servers[target]
		if srv == nil {
			continue
		}
		if srv.Kind != config.URLServer {
			return oauth.Config{}, fmt.Errorf("server %q is a %s server; only URL servers authorize with OAuth", target, srv.Kind)
		}
		o := &config.OAuth{Flow: oauth.FlowAuthorizationCode, Discover: true}
		if srv.Auth != nil && srv.Auth.OAuth != nil {
			o = srv.Auth.OAuth
		} else if srv.Auth != nil {
			return oauth.Config{}, fmt.Errorf("server %q authenticates with a bearer token, not OAuth", target)
		}
		return servers.OAuthConfig(s, srv, o)
	}
	return oauth.Config{}, fmt.Errorf("no server %q in %v", target, files)
}

// authStatus lists the cached authorizations, without their secrets.
func authStatus(args []string, stdout, stderr io.Writer) int {
	cache, err := oauth.DefaultCache()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth status: %v\n", err)
		return 2
	}
	entries, err := cache.List()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth status: %v\n", err)
		return 2
	}
	shown := 0
	for _, e := range entries {
		if len(args) > 0 && args[0] != e.Server && oauth.CanonicalResource(args[0]) != oauth.CanonicalResource(e.URL) {
			continue
		}
		fmt.Fprint(stdout, e.Status(time.Now()))
		shown++
	}
	if shown == 0 {
		fmt.Fprintf(stdout, "no cached OAuth tokens (in %s)\n", cache.Dir)
	}
	return 0
}

// authLogout forgets the cached authorization of one server (a name or
// URL), or of every server with --all.
func authLogout(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: mcptest auth logout SERVER|URL|--all")
		return 2
	}
	cache, err := oauth.DefaultCache()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth logout: %v\n", err)
		return 2
	}
	entries, err := cache.List()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest auth logout: %v\n", err)
		return 2
	}
	removed := 0
	for _, e := range entries {
		if args[0] == "--all" || args[0] == e.Server || oauth.CanonicalResource(args[0]) == oauth.CanonicalResource(e.URL) {
			if ok, err := cache.Delete(e.URL); err != nil {
				fmt.Fprintf(stderr, "mcptest auth logout: %v\n", err)
				return 2
			} else if ok {
				fmt.Fprintf(stdout, "logged out of %s (%s)\n", e.Server, e.URL)
				removed++
			}
		}
	}
	if removed == 0 {
		fmt.Fprintf(stdout, "no cached token for %s\n", args[0])
	}
	return 0
}
