package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
)

// serverFlags name one server on the command line, for the commands that
// test a server without a suite (audit, fuzz, lint, generate, coverage):
// --server CMD|URL with the same header and auth flags as `mcptest run`.
type serverFlags struct {
	server        string
	headers       []string
	headerEnvs    []string
	bearerEnv     string
	env           []string
	targetVersion string
	startTimeout  time.Duration
}

func (f *serverFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.server, "server", "", "the server: a command line (split with POSIX shell rules) or an http(s):// URL")
	fs.StringArrayVar(&f.headers, "header", nil, "send this header to a URL server: NAME=VALUE (repeatable)")
	fs.StringArrayVar(&f.headerEnvs, "header-env", nil, "send this header with the value of an environment variable: NAME=VAR (repeatable; the value is masked in reports)")
	fs.StringVar(&f.bearerEnv, "server-auth-bearer-env", "", "send 'Authorization: Bearer <token>' with the token held by this environment variable")
	fs.StringArrayVar(&f.env, "env", nil, "environment variable for a stdio server, as KEY=VALUE (repeatable)")
	fs.StringVar(&f.targetVersion, "target-version", "", "speak this MCP protocol revision (default "+session.DefaultProtocolVersion+")")
	fs.DurationVar(&f.startTimeout, "start-timeout", 30*time.Second, "how long the server may take to start and answer initialize")
}

// target builds the server target; its Secrets are the values every
// report must mask.
func (f *serverFlags) target() (toolkit.Target, error) {
	t, err := toolkit.ParseServer(f.server)
	if err != nil {
		return t, err
	}
	t.ProtocolVersion, t.ClientVersion, t.InitTimeout = f.targetVersion, version, f.startTimeout
	if t.URL == "" {
		if len(f.headers) > 0 || len(f.headerEnvs) > 0 || f.bearerEnv != "" {
			return t, fmt.Errorf("--header, --header-env and --server-auth-bearer-env apply to URL servers; %q is a command", f.server)
		}
		for _, kv := range f.env {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return t, fmt.Errorf("--env %q: write it as KEY=VALUE", kv)
			}
			if t.Env == nil {
				t.Env = map[string]string{}
			}
			t.Env[k] = v
		}
		return t, nil
	}
	if len(f.env) > 0 {
		return t, fmt.Errorf("--env applies to stdio servers; %s is a URL", f.server)
	}
	for _, spec := range f.headers {
		name, value, err := splitHeader("--header", spec)
		if err != nil {
			return t, err
		}
		t.Headers = append(t.Headers, session.Header{Name: name, Value: value})
	}
	for _, spec := range f.headerEnvs {
		name, env, err := splitHeader("--header-env", spec)
		if err != nil {
			return t, err
		}
		v, err := secretEnv("--header-env "+name, env)
		if err != nil {
			return t, err
		}
		t.Headers = append(t.Headers, session.Header{Name: name, Value: v, Env: env})
		t.Secrets = append(t.Secrets, v)
	}
	if f.bearerEnv != "" {
		v, err := secretEnv("--server-auth-bearer-env", f.bearerEnv)
		if err != nil {
			return t, err
		}
		t.BearerToken, t.BearerEnv = v, f.bearerEnv
		t.Secrets = append(t.Secrets, v)
	}
	return t, nil
}

// secretEnv reads a secret from the environment: set, and long enough to
// be masked in reports.
func secretEnv(flag, name string) (string, error) {
	v, ok := os.LookupEnv(name)
	if !ok || v == "" {
		return "", fmt.Errorf("%w: %s: $%s is empty or not set", errBadHeaderFlag, flag, name)
	}
	if len(v) < redact.MinLen {
		return "", fmt.Errorf("%w: %s: the secret in $%s is %d byte(s) long; secrets must be at least %d bytes, or they could not be masked in reports",
			errBadHeaderFlag, flag, name, len(v), redact.MinLen)
	}
	return v, nil
}
