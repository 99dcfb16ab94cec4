package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestHelpListsToolkitCommands: `mcptest --help` and docs/cli.md name
// every toolkit command.
func TestHelpListsToolkitCommands(t *testing.T) {
	var out bytes.Buffer
	usage(&out)
	cli, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"audit", "fuzz", "lint", "coverage", "generate", "init"} {
		if !strings.Contains(out.String(), "\n  "+c+" ") {
			t.Errorf("--help does not list %s", c)
		}
		if !strings.Contains(string(cli), "| `"+c) {
			t.Errorf("docs/cli.md does not list %s", c)
		}
	}
}
