package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcptest/mcptest/internal/proc"
)

// mcpToolTimeout bounds one tool call of `mcptest mcp-server`, and
// mcpOutputLimit what it returns: an agent pays for every byte.
const (
	mcpToolTimeout = 5 * time.Minute
	mcpOutputLimit = 64 << 10
)

func cmdMCPServer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var enableWrites bool
	fs := newFlagSet("mcp-server", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest mcp-server [--enable-writes]")
		fmt.Fprintln(stderr, "Serves mcptest itself as an MCP server over stdio, so an agent can validate suites and read reports;")
		fmt.Fprintln(stderr, "with --enable-writes also list a server's catalog, scaffold a suite and run suites (tools that start")
		fmt.Fprintln(stderr, "servers under test or write files). docs/agent-interface.md lists the tools.")
		fs.PrintDefaults()
	}
	fs.BoolVar(&enableWrites, "enable-writes", false, "also offer the tools that start servers under test or write files")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest mcp-server: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest mcp-server: %v\n", err)
		return 2
	}
	s := newMCPServer(self, enableWrites)
	srv := server.NewStdioServer(s)
	out := &lockedWriter{w: stdout}
	if err := srv.Listen(ctx, filterRequests(os.Stdin, out), out); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "mcptest mcp-server: %v\n", err)
		return 2
	}
	return exitFor(ctx, 0)
}

// newMCPServer builds the server; every tool runs this mcptest binary
// (self) with the matching command line, so the tools behave exactly as
// the commands they name.
func newMCPServer(self string, enableWrites bool) *server.MCPServer {
	instructions := "mcptest tests MCP servers. Tools here validate suites and read saved reports"
	if enableWrites {
		instructions += ", list a server's catalog, scaffold a suite and run suites or one test (agent report format)."
	} else {
		instructions += "; start with --enable-writes for the tools that start servers or write files."
	}
	s := server.NewMCPServer("mcptest", version, server.WithToolCapabilities(false), server.WithInstructions(instructions))
	readOnly := []mcp.ToolOption{mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true), mcp.WithOpenWorldHintAnnotation(false)}
	s.AddTool(mcp.NewTool("validate_suite", append(readOnly,
		mcp.WithDescription("Loads and plans a suite without starting any server; returns every error with its file, line and field."),
		mcp.WithString("path", mcp.Required(), mcp.Description("the suite file")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			p, err := r.RequireString("path")
			return []string{"validate", p}, err
		}))
	s.AddTool(mcp.NewTool("read_report", append(readOnly,
		mcp.WithDescription("Renders a saved JSON run report in the agent format: a VERDICT line, then only failures with a repro command."),
		mcp.WithString("path", mcp.Required(), mcp.Description("the JSON report (--reporter json=PATH)")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			p, err := r.RequireString("path")
			return []string{"report", p, "--format", "agent"}, err
		}))
	s.AddTool(mcp.NewTool("list_tests", append(readOnly,
		mcp.WithDescription("Lists a suite's tests with their exact ids (for run_suite's id), one JSON object a line; starts nothing."),
		mcp.WithString("path", mcp.Required(), mcp.Description("the suite file")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			p, err := r.RequireString("path")
			return []string{"run", p, "--list", "--json"}, err
		}))
	if !enableWrites {
		return s
	}
	// These start the server under test (which may change things) or
	// write files: offered only with --enable-writes.
	starts := []mcp.ToolOption{mcp.WithReadOnlyHintAnnotation(false), mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false), mcp.WithOpenWorldHintAnnotation(true)}
	s.AddTool(mcp.NewTool("list_catalog", append(starts,
		mcp.WithDescription("Starts (or connects to) a server and returns its catalog snapshot: tools with schemas, resources, templates, prompts."),
		mcp.WithString("server", mcp.Required(), mcp.Description("a command line or an http(s):// URL")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			sv, err := r.RequireString("server")
			return []string{"snapshot-catalog", "--server", sv}, err
		}))
	s.AddTool(mcp.NewTool("scaffold_suite", append(starts,
		mcp.WithDescription("Writes a suite from a live server (mcptest generate): one test per tool, arguments from its schema, expectations from its answers."),
		mcp.WithString("server", mcp.Required(), mcp.Description("a command line or an http(s):// URL")),
		mcp.WithString("path", mcp.Required(), mcp.Description("where to write the suite")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			sv, err := r.RequireString("server")
			if err != nil {
				return nil, err
			}
			p, err := r.RequireString("path")
			return []string{"generate", "--server", sv, "-o", p}, err
		}))
	s.AddTool(mcp.NewTool("propose_assertions", append(starts,
		mcp.WithDescription("Calls one tool of a server and proposes an expect: block that passes against the answer it gave (isError, text blocks, structuredContent scalars)."),
		mcp.WithString("server", mcp.Required(), mcp.Description("a command line or an http(s):// URL")),
		mcp.WithString("tool", mcp.Required(), mcp.Description("the tool to call")),
		mcp.WithObject("arguments", mcp.Description("the call's arguments")))...),
		proposeAssertions)
	s.AddTool(mcp.NewTool("run_suite", append(starts,
		mcp.WithDescription("Runs a suite, or one test of it by exact id, and returns the agent report (VERDICT line, failures with repro commands)."),
		mcp.WithString("path", mcp.Required(), mcp.Description("the suite file")),
		mcp.WithString("id", mcp.Description("run only the test with this exact id (list_tests shows them)")))...),
		runSelf(self, func(r mcp.CallToolRequest) ([]string, error) {
			p, err := r.RequireString("path")
			args := []string{"run", p, "--reporter", "agent", "--no-color"}
			if id := r.GetString("id", ""); id != "" {
				args = append(args, "--id", id)
			}
			return args, err
		}))
	return s
}

// runSelf returns a tool handler that runs mcptest with the arguments
// argv builds from the request. Exit codes 0 and 1 are answers (a suite
// that fails is a result the agent reads); anything else is a tool error
// carrying the output.
func runSelf(self string, argv func(mcp.CallToolRequest) ([]string, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := argv(req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		ctx, cancel := context.WithTimeout(ctx, mcpToolTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, self, args...)
		proc.SetGroup(cmd)
		proc.SetParentDeathSignal(cmd)
		cmd.Cancel = func() error { return proc.KillGroup(cmd) }
		cmd.Stdin = nil
		var out, errOut limitedBuffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err = cmd.Run()
		code := cmd.ProcessState.ExitCode()
		text := strings.TrimRight(out.String(), "\n")
		if e := strings.TrimRight(errOut.String(), "\n"); e != "" {
			if text != "" {
				text += "\n"
			}
			text += e
		}
		text += fmt.Sprintf("\nexit %d", code)
		if err != nil && code != 1 {
			return mcp.NewToolResultError(text), nil
		}
		return mcp.NewToolResultText(text), nil
	}
}

// limitedBuffer keeps the first mcpOutputLimit bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	cut bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := mcpOutputLimit - b.Len(); room < len(p) {
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		b.cut = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func (b *limitedBuffer) String() string {
	if b.cut {
		return b.Buffer.String() + "\n[output cut]"
	}
	return b.Buffer.String()
}
