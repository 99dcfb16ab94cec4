package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/mcptest/mcptest/core/toolkit/mock"
)

// cmdMock serves the MCP server a manifest describes, over stdio (the
// default, so a suite can name `command: [mcptest, mock, FILE]`) or
// Streamable HTTP with --http.
func cmdMock(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("mock", stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP on `ADDR` (host:port; port 0 picks one) instead of stdio; the endpoint URL is printed to stderr")
	check := fs.Bool("check", false, "only load and check the manifest, then exit (0 valid, 2 not)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest mock [flags] MANIFEST.yml")
		fmt.Fprintln(stderr, "Serves the tools (canned or templated results, errors, delays), resources and prompts of a YAML manifest as an MCP server (docs/toolkit-2.md).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mcptest mock: give exactly one manifest; usage: mcptest mock [flags] MANIFEST.yml")
		return 2
	}
	m, err := mock.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mcptest mock: %v\n", err)
		return 2
	}
	if *check {
		fmt.Fprintf(stdout, "%s: %d tool(s), %d resource(s), %d prompt(s): valid\n", fs.Arg(0), len(m.Tools), len(m.Resources), len(m.Prompts))
		return 0
	}
	s, err := mock.NewServer(m)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest mock: %v\n", err)
		return 2
	}
	if *httpAddr == "" {
		if err := mock.ServeStdio(ctx, s, os.Stdin, stdout); err != nil {
			fmt.Fprintf(stderr, "mcptest mock: %v\n", err)
			return 2
		}
		return 0
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest mock: listen on %s: %v\n", *httpAddr, err)
		return 2
	}
	fmt.Fprintf(stderr, "mcptest mock: listening on http://%s%s\n", ln.Addr(), mock.EndpointPath)
	if err := mock.ServeHTTP(ctx, s, ln); err != nil {
		fmt.Fprintf(stderr, "mcptest mock: %v\n", err)
		return 2
	}
	return 0
}
