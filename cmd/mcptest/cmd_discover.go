package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mcptest/mcptest/core/discover"
	"github.com/mcptest/mcptest/internal/redact"
)

func cmdDiscover(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var url, bearerEnv string
	var headers, headerEnvs []string
	var timeout time.Duration
	fs := newFlagSet("discover", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest discover --url URL [flags]")
		fmt.Fprintln(stderr, "Reads the server's .well-known discovery document if it publishes one (strictly), probes the endpoint")
		fmt.Fprintln(stderr, "(transports, protocol revisions, authorization) and prints a servers: block for a suite.")
		fmt.Fprintln(stderr, "Exit 0 when the server answered, 1 when its discovery document is invalid, 2 when nothing answered.")
		fs.PrintDefaults()
	}
	fs.StringVar(&url, "url", "", "the server's endpoint, or its origin when it publishes a discovery document")
	fs.StringArrayVar(&headers, "header", nil, "send this header: NAME=VALUE (repeatable)")
	fs.StringArrayVar(&headerEnvs, "header-env", nil, "send this header with the value of an environment variable: NAME=VAR (repeatable; masked)")
	fs.StringVar(&bearerEnv, "server-auth-bearer-env", "", "send 'Authorization: Bearer <token>' with the token held by this environment variable")
	fs.DurationVar(&timeout, "timeout", 5*time.Second, "how long each probe may take")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if url == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "mcptest discover: usage: mcptest discover --url URL")
		return 2
	}
	h := http.Header{}
	red := redact.New()
	for _, spec := range headers {
		name, value, err := splitHeader("--header", spec)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest discover: %v\n", err)
			return 2
		}
		h.Add(name, value)
	}
	for _, spec := range headerEnvs {
		name, env, err := splitHeader("--header-env", spec)
		if err == nil {
			var v string
			if v, err = secretEnv("--header-env "+name, env); err == nil {
				h.Add(name, v)
				red.Add(v)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcptest discover: %v\n", err)
			return 2
		}
	}
	if bearerEnv != "" {
		v, err := secretEnv("--server-auth-bearer-env", bearerEnv)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest discover: %v\n", err)
			return 2
		}
		h.Set("Authorization", "Bearer "+v)
		red.Add(v)
	}
	res, err := discover.Discover(ctx, url, discover.Options{Timeout: timeout, Header: h, ClientVersion: version})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest discover: %v\n", err)
		return 2
	}
	if _, err := io.WriteString(stdout, red.String(res.ServersBlock())); err != nil {
		return 2
	}
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case res.CardErr != nil:
		return 1
	case !res.Reachable():
		return 2
	}
	return 0
}
