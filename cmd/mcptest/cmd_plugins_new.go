package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcptest/mcptest/internal/scaffold"
)

// pluginsNewUsage is the synopsis of `mcptest plugins new`.
const pluginsNewUsage = "usage: mcptest plugins new matcher|reporter|provider|scorer NAME [--dir DIR] [--module PATH] [--sdk DIR] [--sdk-version V]"

// pluginsNew writes a new plugin module (internal/scaffold) that builds,
// tests and installs as it is.
func pluginsNew(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plugins new", stderr)
	dir := fs.String("dir", "", "folder to create (default ./NAME); it must not exist or be empty")
	module := fs.String("module", "", "Go module path of the plugin (default NAME)")
	sdkDir := fs.String("sdk", "", "an mcptest checkout's sdk/ folder: go.mod gets a replace to it, for use before the SDK module is published")
	sdkVersion := fs.String("sdk-version", scaffold.DefaultSDKVersion, "SDK module version go.mod requires")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, pluginsNewUsage)
		return 2
	}
	kind, name := fs.Arg(0), fs.Arg(1)
	if *dir == "" {
		*dir = name
	}
	files, err := scaffold.Write(scaffold.Options{
		Kind: kind, Name: name, Dir: *dir, Module: *module,
		SDKDir: *sdkDir, SDKVersion: *sdkVersion,
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest plugins new: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote a %s plugin module in %s:\n", kind, *dir)
	for _, f := range files {
		fmt.Fprintf(stdout, "  %s\n", filepath.Base(f))
	}
	fmt.Fprintf(stdout, "next: cd %s && make test install   (installs into ./.mcptest/plugins; PLUGIN_DIR=... to change)\n", shellWord(*dir))
	return 0
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
