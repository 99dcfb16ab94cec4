// Command demo is the MCP server mcptest's examples and tests run against.
//
// It serves over stdio by default. With --http ADDR it serves Streamable HTTP
// on ADDR instead and prints the endpoint URL to stderr, so a test can start
// it on "127.0.0.1:0" and read the address back. With --sse ADDR it serves
// the legacy HTTP+SSE transport (protocol 2024-11-05) the same way, and the
// printed URL is the event stream's. --escape-json makes either HTTP mode
// write JSON strings with "/" as "\/" and non-ASCII characters as \u
// escapes, as some non-Go servers do (escape.go). --start-delay DURATION
// makes it wait that long before serving, which reproduces the start-up
// of a Node or Python server for benchmarks without either.
//
// Its tools, resources and prompts are deliberately small and deterministic;
// its lists come in pages (the resources span three), and the travel
// prompt's arguments and the items template's id complete;
// some (fail, crash, slow, stderr_noise) exist to exercise mcptest's handling
// of misbehaving servers, and others (progress, log, sample, elicit, roots,
// bump and the demo://counter resource) what a server sends its client
// besides answers (features.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

const (
	serverName    = "mcptest-demo"
	serverVersion = "1.0.0"
	endpointPath  = "/mcp"
	ssePath       = "/sse"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP on `ADDR` (host:port) instead of stdio")
	sseAddr := flag.String("sse", "", "serve legacy HTTP+SSE on `ADDR` (host:port) instead of stdio")
	flag.BoolVar(&escapeJSON, "escape-json", false, `over HTTP, write "/" as "\/" and non-ASCII characters as \uXXXX in every JSON string, as some servers do`)
	flag.StringVar(&variant, "variant", "", "serve a changed demo for drift tests: `schema` (echo requires a new argument times) or behaviour (add answers one too many)")
	startDelay := flag.Duration("start-delay", 0, "wait `DURATION` (e.g. 350ms) before serving, as a server with a slow start-up (Node, Python) does; benchmarks use it")
	flag.Parse()
	if *startDelay < 0 {
		fmt.Fprintf(os.Stderr, "demo: --start-delay %s: give a duration of zero or more\n", *startDelay)
		os.Exit(2)
	}
	// Nothing is read before the delay is over: a client's initialize
	// waits in the pipe (or the connection backlog), as it would while a
	// slow runtime loads.
	time.Sleep(*startDelay)
	if variant != "" && variant != variantSchema && variant != variantBehaviour {
		fmt.Fprintf(os.Stderr, "demo: --variant %q: use schema or behaviour\n", variant)
		os.Exit(2)
	}

	s := newServer()
	var err error
	switch {
	case *httpAddr != "" && *sseAddr != "":
		err = errors.New("--http and --sse are mutually exclusive")
	case *httpAddr != "":
		mux := http.NewServeMux()
		mux.Handle(endpointPath, server.NewStreamableHTTPServer(s))
		err = serveHTTP(*httpAddr, endpointPath, maybeEscaping(mux))
	case *sseAddr != "":
		// The SSE server serves its stream at /sse and messages at
		// /message; the endpoint event it sends is a relative path.
		sse := server.NewSSEServer(s)
		bridge = newSSEBridge(sse)
		err = serveHTTP(*sseAddr, ssePath, maybeEscaping(bridge))
	default:
		// Tool calls run on a worker pool; the default of 5 workers would
		// serialise concurrency tests behind one slow call.
		err = server.ServeStdio(s, server.WithWorkerPoolSize(32))
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
}

// maybeEscaping wraps h in escapingHandler when --escape-json is given.
func maybeEscaping(h http.Handler) http.Handler {
	if escapeJSON {
		return escapingHandler(h)
	}
	return h
}

// newServer builds the MCP server with every tool, resource and prompt.
func newServer() *server.MCPServer {
	opts := []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithPromptCapabilities(false),
		server.WithRecovery(),
		// Lists come in pages of listPageSize: the resources span several
		// pages, so clients must follow nextCursor.
		server.WithPaginationLimit(listPageSize),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(completer{}),
		server.WithResourceCompletionProvider(completer{}),
	}
	s := server.NewMCPServer(serverName, serverVersion, append(opts, featureOptions()...)...)
	addTools(s)
	addInputTools(s)
	addFeatures(s)
	addResources(s)
	addPrompts(s)
	addTravelPrompt(s)
	return s
}

// serveHTTP serves handler on addr until SIGINT or SIGTERM, and prints the
// URL of path.
func serveHTTP(addr, path string, handler http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}

	fmt.Fprintf(os.Stderr, "demo: listening on http://%s%s\n", ln.Addr(), path)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}
