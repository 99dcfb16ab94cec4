package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/internal/redact"
)

// httpFlags retarget the HTTP side of every URL server without editing the
// suite: extra headers, TLS trust and timeouts. They win over the suite's
// headers and http blocks, header by header (names compared without case).
type httpFlags struct {
	headers        []string
	headerEnvs     []string
	insecure       bool
	caBundle       string
	httpTimeout    float64
	connectTimeout float64
}

func (h *httpFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&h.headers, "header", nil, "send this header to every URL server: NAME=VALUE (repeatable)")
	fs.StringArrayVar(&h.headerEnvs, "header-env", nil, "send this header with the value of an environment variable: NAME=VAR (repeatable; the value is masked in reports)")
	fs.BoolVar(&h.insecure, "insecure-skip-verify", false, "do not verify URL servers' TLS certificates (dangerous; prints a warning)")
	fs.StringVar(&h.caBundle, "ca-bundle", "", "trust the CA certificates in this PEM file for URL servers")
	fs.Float64Var(&h.httpTimeout, "http-timeout", 0, "per-request timeout for URL servers, in seconds")
	fs.Float64Var(&h.connectTimeout, "connect-timeout", 0, "TCP and TLS connect timeout for URL servers, in seconds")
}

// errBadHeaderFlag is wrapped by every rejected --header or --header-env.
var errBadHeaderFlag = errors.New("invalid header flag")

// apply rewrites the URL servers of the suites. The values of --header-env
// variables join the suites' secrets so every report masks them.
func (h *httpFlags) apply(suites []*config.Suite, stderr io.Writer) error {
	var add []*config.Header
	var secrets []string
	for _, spec := range h.headers {
		name, value, err := splitHeader("--header", spec)
		if err != nil {
			return err
		}
		add = append(add, &config.Header{Name: name, Value: value})
	}
	for _, spec := range h.headerEnvs {
		name, env, err := splitHeader("--header-env", spec)
		if err != nil {
			return err
		}
		v, ok := os.LookupEnv(env)
		if !ok {
			return fmt.Errorf("%w: --header-env %s: $%s is not set", errBadHeaderFlag, name, env)
		}
		if len(v) < redact.MinLen {
			// As for a suite's secret fields (core/config): a value this
			// short could not be masked in reports.
			return fmt.Errorf("%w: --header-env %s: the secret in $%s is %d byte(s) long; secrets must be at least %d bytes, or they could not be masked in reports",
				errBadHeaderFlag, name, env, len(v), redact.MinLen)
		}
		add = append(add, &config.Header{Name: name, Env: env})
		secrets = append(secrets, v)
	}
	if h.httpTimeout < 0 || h.connectTimeout < 0 {
		return errors.New("--http-timeout and --connect-timeout take a positive number of seconds")
	}
	if h.insecure {
		fmt.Fprintln(stderr, "WARNING: --insecure-skip-verify: TLS certificates of URL servers are not verified; anyone on the path can read and change the traffic")
	}
	for _, s := range suites {
		for _, srv := range s.Servers {
			if srv.Kind != config.URLServer {
				continue
			}
			srv.Headers = mergeHeaders(srv.Headers, add)
			if h.insecure {
				srv.HTTP.TLS.InsecureSkipVerify = true
			}
			if h.caBundle != "" {
				srv.HTTP.TLS.CABundlePath = h.caBundle
			}
			if h.httpTimeout > 0 {
				srv.HTTP.Timeout = seconds(h.httpTimeout)
			}
			if h.connectTimeout > 0 {
				srv.HTTP.ConnectTimeout = seconds(h.connectTimeout)
			}
		}
		s.Secrets = append(s.Secrets, secrets...)
	}
	return nil
}

// mergeHeaders returns base with every header of add replacing the one of
// the same name, or appended.
func mergeHeaders(base, add []*config.Header) []*config.Header {
	out := make([]*config.Header, 0, len(base)+len(add))
	for _, b := range base {
		replaced := false
		for _, a := range add {
			if strings.EqualFold(a.Name, b.Name) {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, b)
		}
	}
	return append(out, add...)
}

// splitHeader reads NAME=VALUE and checks the name is an RFC 7230 token and
// not one the auth block owns.
func splitHeader(flag, spec string) (string, string, error) {
	name, value, ok := strings.Cut(spec, "=")
	if !ok || value == "" {
		return "", "", fmt.Errorf("%w: %s %q: want NAME=VALUE", errBadHeaderFlag, flag, spec)
	}
	if !isToken(name) {
		return "", "", fmt.Errorf("%w: %s %q: %q is not a valid header name", errBadHeaderFlag, flag, spec, name)
	}
	if strings.EqualFold(name, "Authorization") || strings.EqualFold(name, "Proxy-Authorization") {
		return "", "", fmt.Errorf("%w: %s: %s belongs in the auth block (bearer_token_env or oauth), or --server-auth-bearer-env", errBadHeaderFlag, flag, name)
	}
	if strings.ContainsAny(value, "\r\n") {
		return "", "", fmt.Errorf("%w: %s %s: the value contains a line break", errBadHeaderFlag, flag, name)
	}
	return name, value, nil
}

// isToken reports whether s is an RFC 7230 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", r):
		default:
			return false
		}
	}
	return true
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
