// Command bundle builds mcptest, the demo server and every bundled plugin in
// one `go build` (so compilation is shared) and lays them out as a release
// does:
//
//	bin/mcptest
//	bin/mcptest-demo-server
//	bin/mcptest-plugins/<name>/{mcptest-plugin-<name>, mcptest-plugin.yaml}
//
// Each plugin's manifest is written from its own `describe` output with the
// sha256 of the binary, exactly as `mcptest plugins install` would.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcptest/mcptest/core/plugin"
)

func main() {
	bin := flag.String("bin", "bin", "output directory")
	flag.Parse()
	if err := run(*bin); err != nil {
		fmt.Fprintf(os.Stderr, "bundle: %v\n", err)
		os.Exit(1)
	}
}

func run(bin string) error {
	pkgs, err := pluginPackages()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mcptest-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	seen := map[string]string{}
	for _, p := range pkgs {
		base := filepath.Base(p)
		if other, ok := seen[base]; ok {
			return fmt.Errorf("plugin packages %s and %s share the binary name %q; rename one folder", other, p, base)
		}
		seen[base] = p
	}
	// -s -w drops the symbol tables: plugins are hashed before every launch,
	// and a third smaller binary hashes a third faster.
	args := append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", tmp + string(filepath.Separator), "./cmd/mcptest", "./examples/servers/demo"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Env = buildEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(tmp, "mcptest"), filepath.Join(bin, "mcptest")); err != nil {
		return fmt.Errorf("place mcptest: %w", err)
	}
	// The example server the quickstart suite and the tests talk to.
	if err := os.Rename(filepath.Join(tmp, "demo"), filepath.Join(bin, "mcptest-demo-server")); err != nil {
		return fmt.Errorf("place the demo server: %w", err)
	}
	dest := filepath.Join(bin, "mcptest-plugins")
	// Start from an empty folder so a removed plugin does not linger.
	if err := os.RemoveAll(dest); err != nil {
		return err
	}
	for _, p := range pkgs {
		f, err := plugin.Install(context.Background(), filepath.Join(tmp, filepath.Base(p)), dest)
		if err != nil {
			return fmt.Errorf("bundle %s: %w", p, err)
		}
		fmt.Printf("bundled %-10s %s\n", f.Manifest.Name, f.Dir)
	}
	return nil
}

// buildEnv is env for the go build, with cgo off unless env chooses
// otherwise. Nothing of ours needs cgo; only net and os/user would use it
// (the pure-Go resolver and user lookup serve us as well), and a cgo binary
// is dynamically linked: the loader, libc's start-up and cgo's thread setup
// added ~3-4 ms to every start of mcptest and of each plugin, several times
// a run (docs/performance.md).
func buildEnv(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "CGO_ENABLED=") {
			return env
		}
	}
	return append(env, "CGO_ENABLED=0")
}

// pluginPackages lists the main packages under ./plugins, except this tool
// and anything else under plugins/internal.
func pluginPackages() ([]string, error) {
	out, err := exec.Command("go", "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./plugins/...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("go list: %s", bytes.TrimSpace(ee.Stderr))
		}
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []string
	for _, line := range strings.Fields(string(out)) {
		if strings.Contains(line, "/plugins/internal/") {
			continue
		}
		pkgs = append(pkgs, line)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no plugin packages found under ./plugins")
	}
	return pkgs, nil
}
