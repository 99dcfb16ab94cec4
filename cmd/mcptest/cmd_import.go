package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcptest/mcptest/core/toolkit/importer"
)

// cmdImport converts suites of another tool (today mcp-assert) into one
// mcptest suite, listing every construct it could not convert.
func cmdImport(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("import", stderr)
	out := fs.StringP("output", "o", "", "write the suite to `FILE` (required)")
	fixture := fs.String("fixture", "", "the `DIR` {{fixture}} stands for (mcp-assert's --fixture); default: a fixtures folder beside each file")
	npmPrefix := fs.String("npm-prefix", "", "turn `npx PKG` into node and PKG's bin installed under `DIR`/node_modules, so runs download nothing")
	var commandMap []string
	fs.StringArrayVar(&commandMap, "command-map", nil, "run servers written as `FROM` with TO instead: FROM=TO, FROM a whole command line or a program (repeatable)")
	share := fs.Bool("share-servers", false, "start each command server once for all its tests (restart_policy per_run: fastest, but a test that crashes or changes the server affects the tests after it); servers with a fixture keep the default")
	isolate := fs.Bool("strict-isolation", false, "give every test a fresh server process, as mcp-assert does (restart_policy per_test); by default a process is kept only across tests that passed and sent nothing but reads (after_write)")
	strict := fs.Bool("strict", false, "exit 1 when any file could not be converted")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest import mcp-assert [flags] DIR|FILE... -o SUITE.yml")
		fmt.Fprintln(stderr, "Converts mcp-assert assertion files into one mcptest suite; each file that cannot be converted is listed with its line and reason (docs/toolkit-2.md).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	rest := fs.Args()
	if len(rest) < 2 || rest[0] != "mcp-assert" {
		fmt.Fprintln(stderr, "mcptest import: usage: mcptest import mcp-assert [flags] DIR|FILE... -o SUITE.yml (mcp-assert is the one format read today)")
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "mcptest import: -o SUITE.yml is required")
		return 2
	}
	if *share && *isolate {
		fmt.Fprintln(stderr, "mcptest import: --share-servers and --strict-isolation contradict each other: pick one")
		return 2
	}
	commands, err := importer.ParseCommandMap(commandMap)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest import: %v\n", err)
		return 2
	}
	res, err := importer.Convert(rest[1:], importer.Options{Out: *out, Fixture: *fixture, NPMPrefix: *npmPrefix, Commands: commands, ShareServers: *share, StrictIsolation: *isolate})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest import: %v\n", err)
		return 2
	}
	failed := 0
	for _, is := range res.Issues {
		fmt.Fprintln(stderr, is)
		if !is.Note {
			failed++
		}
	}
	raw, err := res.Suite.Marshal(fmt.Sprintf("imported from mcp-assert by mcptest import: %d of %d file(s) converted", res.Converted, res.Files))
	if err != nil {
		fmt.Fprintf(stderr, "mcptest import: %v\n", err)
		return 2
	}
	if err := os.WriteFile(*out, raw, 0o644); err != nil {
		fmt.Fprintf(stderr, "mcptest import: %v\n", err)
		return 2
	}
	if err := importer.WriteTraces(filepath.Dir(*out), res.Traces); err != nil {
		fmt.Fprintf(stderr, "mcptest import: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s: %d of %d file(s) converted, %d not converted, %d server(s)\n", *out, res.Converted, res.Files, res.Files-res.Converted, len(res.Suite.Servers))
	if *strict && failed > 0 {
		return 1
	}
	return 0
}
