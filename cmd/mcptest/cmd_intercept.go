package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"

	"github.com/mcptest/mcptest/core/toolkit/intercept"
)

// cmdIntercept is a recording proxy between an MCP client and a server:
// over stdio (`-- CMD ARGS`, the client starts mcptest intercept as its
// server) or Streamable HTTP (--listen ADDR --upstream URL). Every
// message is written, masked, to a JSONL trace.
func cmdIntercept(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("intercept", stderr)
	out := fs.StringP("output", "o", "", "write the JSONL trace to `FILE` (required)")
	listen := fs.String("listen", "", "serve the HTTP proxy on `ADDR` (host:port; port 0 picks one; the URL is printed to stderr)")
	upstream := fs.String("upstream", "", "with --listen: the server's Streamable HTTP endpoint `URL`")
	maskKeys := fs.StringArray("mask", nil, "also mask the values of object keys containing `KEY` (repeatable; token, secret, password, authorization, api_key, cookie... always are)")
	maskEnv := fs.StringArray("mask-env", nil, "mask every occurrence of the value of environment variable `VAR` (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest intercept -o TRACE.jsonl [--mask KEY] -- SERVER-COMMAND ARGS...")
		fmt.Fprintln(stderr, "       mcptest intercept -o TRACE.jsonl --listen ADDR --upstream URL")
		fmt.Fprintln(stderr, "Records every JSON-RPC message between a client and a server, masked, one JSON object a line (docs/toolkit-2.md).")
		fs.PrintDefaults()
	}
	var argv []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, argv = args[:i], args[i+1:]
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	switch {
	case *out == "":
		fmt.Fprintln(stderr, "mcptest intercept: -o TRACE.jsonl is required")
		return 2
	case *listen != "" && len(argv) > 0, *listen == "" && len(argv) == 0:
		fmt.Fprintln(stderr, "mcptest intercept: give either -- SERVER-COMMAND ARGS (stdio) or --listen ADDR --upstream URL (HTTP)")
		return 2
	case (*listen == "") != (*upstream == ""):
		fmt.Fprintln(stderr, "mcptest intercept: --listen and --upstream go together")
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "mcptest intercept: unexpected argument %q (the server command goes after --)\n", fs.Arg(0))
		return 2
	}
	var secrets []string
	for _, v := range *maskEnv {
		if s := os.Getenv(v); s != "" {
			secrets = append(secrets, s)
		}
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest intercept: %v\n", err)
		return 2
	}
	defer f.Close()
	rec := intercept.NewRecorder(f, *maskKeys, secrets...)
	code := 0
	if len(argv) > 0 {
		code, err = intercept.Stdio(ctx, argv, os.Stdin, stdout, stderr, rec)
	} else {
		var ln net.Listener
		if ln, err = net.Listen("tcp", *listen); err == nil {
			fmt.Fprintf(stderr, "mcptest intercept: listening on http://%s/mcp, forwarding to %s\n", ln.Addr(), *upstream)
			err = intercept.ServeProxy(ctx, ln, &intercept.HTTPProxy{Upstream: *upstream, Rec: rec, Client: &http.Client{}})
		}
	}
	if err == nil {
		err = rec.Err()
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptest intercept: %v\n", err)
		return 2
	}
	return code
}
