// Command mcptest tests MCP servers: it runs YAML suites of tool calls
// against real servers and judges the results with matcher plugins.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/proc"
	"github.com/mcptest/mcptest/internal/timeline"
)

// version is mcptest's version; release builds set it with -ldflags.
var version = "0.1.0-dev"

// orphanWait bounds how long the final sweep for escaped grandchildren may
// take; it takes no time when there are none.
const orphanWait = 2 * time.Second

func main() {
	timeline.Mark("main")
	// A report written to a closed pipe (`mcptest run | head`) is then a
	// write error, reported with exit 2, rather than a silent death by
	// SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	plugin.TuneHostGC()
	// Grandchildren that escape their server's process group (setsid)
	// come back to us when their parent exits (Linux only).
	_ = proc.BecomeSubreaper()
	stopProfile := startProfile()
	code := mainCode(os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stopPlugins()
	// Every server, hook and plugin is stopped: whatever child is left
	// is an orphan.
	proc.KillOrphans(orphanWait)
	timeline.Mark("exit")
	os.Exit(code)
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"run", "run suites against their servers", cmdRun},
		{"eval", "grade the suites' evals: block (rubrics judged by a model, or scorers)", cmdEval},
		{"record", "run suites live and write a cassette per server", cmdRecord},
		{"validate", "check suites without starting any server", cmdValidate},
		{"report", "re-render a saved run, merge shard reports, or chart saved runs (report trend)", cmdReport},
		{"compliance", "run the protocol compliance checks against a server", cmdCompliance},
		{"audit", "call every tool of a server once and classify how it copes", cmdAudit},
		{"fuzz", "send every tool invalid and edge inputs and report each crash class", cmdFuzz},
		{"lint", "check a server's tool, resource and prompt definitions against quality rules", cmdLint},
		{"coverage", "list what a server offers that no test of the suites touches", cmdCoverage},
		{"generate", "write a suite from a live server, one passing test per tool", cmdGenerate},
		{"init", "scaffold a project: a suite, .env.example and sharded CI pipelines", cmdInit},
		{"snapshot-catalog", "save a server's tools, resources and prompts as a catalog snapshot", cmdSnapshotCatalog},
		{"diff", "compare two catalogs and classify every change as breaking or not", cmdDiff},
		{"discover", "probe a server URL (discovery document, transports, revisions, auth) and print a servers: block", cmdDiscover},
		{"doctor", "check what suites need (commands, Node, URLs, TLS, variables, plugins) and print each fix", cmdDoctor},
		{"mcp-server", "serve mcptest itself as an MCP server over stdio, for coding agents (--enable-writes for tools that run servers)", cmdMCPServer},
		{"drift", "capture a server's catalog and canary answers, and check it later for drift", cmdDrift},
		{"mock", "serve an MCP server from a YAML manifest (canned tools, resources, prompts)", cmdMock},
		{"import", "convert mcp-assert suites into one mcptest suite (import mcp-assert DIR... -o FILE)", cmdImport},
		{"watch", "re-run suites when they, their imports or their servers change", cmdWatch},
		{"intercept", "record the messages between an MCP client and a server (stdio or HTTP) to a masked JSONL trace", cmdIntercept},
		{"auth", "log in to an OAuth-protected server (login, status, logout)", cmdAuth},
		{"plugins", "list, install and verify plugins", cmdPlugins},
		{"schema", "print the JSON Schema of the suite format", cmdSchema},
		{"version", "print mcptest's version", cmdVersion},
	}
}

// mainCode runs the command line and returns the exit code.
func mainCode(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	args = hoistGlobalFlags(args)
	for _, c := range commands() {
		if c.name == args[0] {
			ctx, in := watchInterrupts()
			defer in.stop()
			return in.run(ctx, stderr, func(ctx context.Context) int { return c.run(ctx, args[1:], stdout, stderr) })
		}
	}
	fmt.Fprintf(stderr, "mcptest: unknown command %q", args[0])
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if s := plugin.Suggest(args[0], names); s != "" {
		fmt.Fprintf(stderr, " (did you mean %q?)", s)
	}
	fmt.Fprintln(stderr)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcptest <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'mcptest <command> --help' for the command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 all tests passed, 1 a test failed, 2 the suite or run could not be carried out, 130 interrupted.")
}

// globalFlags may be written before the command, as in
// `mcptest --server-url https://preview run suite.yml`, so one CI
// invocation can retarget whatever command follows. Each takes a value.
var globalFlags = map[string]bool{
	"--server-url": true, "--server-command": true, "--server-auth-bearer-env": true, "--server-config": true,
	"--target-version": true, "--header": true, "--header-env": true, "--ca-bundle": true, "--http-timeout": true, "--connect-timeout": true,
}

// globalBoolFlags may also precede the command; they take no value.
var globalBoolFlags = map[string]bool{"--insecure-skip-verify": true}

// hoistGlobalFlags moves global flags written before the command to just
// after it, where the command's flag set parses them.
func hoistGlobalFlags(args []string) []string {
	var global []string
	i := 0
	for i < len(args) {
		name, _, hasValue := strings.Cut(args[i], "=")
		if !globalFlags[name] && !globalBoolFlags[name] {
			break
		}
		if hasValue || globalBoolFlags[name] || i+1 >= len(args) {
			global = append(global, args[i])
			i++
			continue
		}
		global = append(global, args[i], args[i+1])
		i += 2
	}
	if len(global) == 0 || i >= len(args) {
		return args
	}
	out := append([]string{args[i]}, global...)
	return append(out, args[i+1:]...)
}
