// Package doctor checks the environment a suite needs before it runs:
// server commands on PATH, Node for npm servers, URL servers reachable
// (TLS included), the variables auth and headers read, cassette files.
// Each finding is one line with the fix; `mcptest doctor` prints them
// (plugin checks live in the command, which owns the plugin registry).
package doctor

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
)

// Level is how serious a finding is.
type Level string

// The levels. Fail means a run would break; warn that it may.
const (
	OK   Level = "ok"
	Warn Level = "warn"
	Fail Level = "fail"
)

// Finding is one result of a check.
type Finding struct {
	Level Level
	// Subject names what was checked: "server demo (suite.yml:3)", "node".
	Subject string
	Message string
	// Fix says what to do; empty for OK findings.
	Fix string
}

// String renders the finding on one line.
func (f Finding) String() string {
	s := fmt.Sprintf("%-4s %s: %s", f.Level, f.Subject, f.Message)
	if f.Fix != "" {
		s += " — fix: " + f.Fix
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// Env is what the checks read from the machine; tests replace it.
type Env struct {
	LookPath func(string) (string, error)
	Getenv   func(string) (string, bool)
	// Dial opens a TCP connection (and TLS for https) to check a URL.
	Dial    func(ctx context.Context, u *url.URL) error
	Timeout time.Duration
}

// DefaultEnv is the real machine.
func DefaultEnv() Env {
	return Env{LookPath: exec.LookPath, Getenv: os.LookupEnv, Dial: dialURL, Timeout: 3 * time.Second}
}

// dialURL connects to a URL's host, with a TLS handshake for https.
func dialURL(ctx context.Context, u *url.URL) error {
	host := u.Host
	if u.Port() == "" {
		if u.Scheme == "https" {
			host = net.JoinHostPort(u.Hostname(), "443")
		} else {
			host = net.JoinHostPort(u.Hostname(), "80")
		}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return err
	}
	defer conn.Close()
	if u.Scheme != "https" {
		return nil
	}
	tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12})
	return tc.HandshakeContext(ctx)
}

// Suite checks the servers of one loaded suite.
func Suite(ctx context.Context, s *config.Suite, env Env) []Finding {
	names := make([]string, 0, len(s.Servers))
	for n := range s.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Finding
	for _, n := range names {
		out = append(out, server(ctx, s.Servers[n], env)...)
	}
	return out
}

func subject(sv *config.Server) string {
	if sv.Pos.File != "" {
		return fmt.Sprintf("server %s (%s:%d)", sv.Name, sv.Pos.File, sv.Pos.Line)
	}
	return "server " + sv.Name
}

func server(ctx context.Context, sv *config.Server, env Env) []Finding {
	subj := subject(sv)
	var out []Finding
	switch sv.Kind {
	case config.StdioServer:
		out = append(out, command(sv, subj, env)...)
	case config.URLServer:
		out = append(out, reach(ctx, sv, subj, env))
	case config.CassetteServer:
		if _, err := os.Stat(sv.Cassette); err != nil {
			out = append(out, Finding{Fail, subj, "cassette " + sv.Cassette + " cannot be read: " + err.Error(), "record it with `mcptest record SUITE`, or fix the cassette: path"})
		} else {
			out = append(out, Finding{OK, subj, "cassette " + sv.Cassette + " is there", ""})
		}
	}
	out = append(out, variables(sv, subj, env)...)
	return out
}

// command checks that a stdio server's program can be found, and Node for
// node, npx and npm commands.
func command(sv *config.Server, subj string, env Env) []Finding {
	if len(sv.Command) == 0 {
		return nil
	}
	prog := sv.Command[0]
	var out []Finding
	if strings.ContainsRune(prog, '/') {
		path := prog
		if !filepath.IsAbs(path) && sv.Pos.File != "" {
			// Relative commands run from the directory mcptest runs in;
			// say where it would be looked up.
			path = filepath.Clean(prog)
		}
		st, err := os.Stat(path)
		switch {
		case err != nil:
			out = append(out, Finding{Fail, subj, "command " + prog + " does not exist (from " + mustWd() + ")", "build it, or run mcptest from the directory the path is relative to"})
		case st.IsDir() || st.Mode()&0o111 == 0:
			out = append(out, Finding{Fail, subj, "command " + prog + " is not an executable file", "chmod +x " + prog})
		default:
			out = append(out, Finding{OK, subj, "command " + prog + " is executable", ""})
		}
		return out
	}
	found, err := env.LookPath(prog)
	if err != nil {
		fix := "install " + prog + " or put it on PATH"
		if prog == "node" || prog == "npx" || prog == "npm" {
			fix = "install Node.js (it brings node, npm and npx)"
		}
		return append(out, Finding{Fail, subj, "command " + prog + " is not on PATH", fix})
	}
	out = append(out, Finding{OK, subj, "command " + prog + " is " + found, ""})
	if prog == "node" && len(sv.Command) > 1 && strings.HasSuffix(sv.Command[1], ".js") {
		if _, err := os.Stat(sv.Command[1]); err != nil {
			out = append(out, Finding{Fail, subj, "script " + sv.Command[1] + " does not exist", "install the npm package that provides it (npm install)"})
		}
	}
	return out
}

// reach checks that a URL server's host accepts connections (and TLS).
func reach(ctx context.Context, sv *config.Server, subj string, env Env) Finding {
	u, err := url.Parse(sv.URL)
	if err != nil || u.Host == "" {
		return Finding{Fail, subj, "url " + sv.URL + " is not a URL", "write url: as http(s)://host[:port]/path"}
	}
	cctx, cancel := context.WithTimeout(ctx, env.Timeout)
	defer cancel()
	if err := env.Dial(cctx, u); err != nil {
		var certErr *tls.CertificateVerificationError
		var hostErr x509HostError
		switch {
		case errors.As(err, &certErr) || errors.As(err, &hostErr):
			return Finding{Fail, subj, "TLS to " + u.Host + " failed: " + err.Error(), "give the CA under http.tls.ca_bundle_path, or fix the server's certificate"}
		case errors.Is(err, context.DeadlineExceeded):
			return Finding{Fail, subj, u.Host + " did not answer within " + env.Timeout.String(), "start the server, or check the host, port and any firewall"}
		}
		return Finding{Fail, subj, "cannot connect to " + u.Host + ": " + err.Error(), "start the server, or fix url:"}
	}
	return Finding{OK, subj, u.Host + " accepts connections", ""}
}

// variables checks the variables a server's auth and headers read.
func variables(sv *config.Server, subj string, env Env) []Finding {
	var out []Finding
	need := func(name, what string) {
		if v, ok := env.Getenv(name); !ok || v == "" {
			out = append(out, Finding{Fail, subj, "$" + name + " (" + what + ") is not set", "export " + name + "=… before running (never write secrets in the suite)"})
		} else {
			out = append(out, Finding{OK, subj, "$" + name + " (" + what + ") is set", ""})
		}
	}
	if sv.Auth != nil {
		if sv.Auth.BearerTokenEnv != "" {
			need(sv.Auth.BearerTokenEnv, "auth.bearer_token_env")
		}
		if o := sv.Auth.OAuth; o != nil {
			if o.ClientIDEnv != "" {
				need(o.ClientIDEnv, "auth.oauth client id")
			}
			if o.PrivateKeyEnv != "" {
				need(o.PrivateKeyEnv, "auth.oauth private key")
			}
		}
	}
	for _, h := range sv.Headers {
		if h.Env != "" {
			need(h.Env, "header "+h.Name)
		}
	}
	return out
}

func mustWd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
