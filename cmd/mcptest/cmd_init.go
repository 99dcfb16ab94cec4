package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/toolkit/initproj"
)

// initFlags are the flags of `mcptest init`.
type initFlags struct {
	serverFlags
	shards             int
	force              bool
	includeDestructive bool
}

func cmdInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f initFlags
	fs := newFlagSet("init", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest init [DIR] [--server CMD|URL] [flags]")
		fmt.Fprintln(stderr, "Scaffolds a project: mcptest.yml (a test per tool with --server), .env.example, and GitHub Actions")
		fmt.Fprintln(stderr, "and GitLab CI pipelines that shard the run across jobs and merge the reports.")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.IntVar(&f.shards, "shards", 4, "parallel CI jobs the pipelines split the run into")
	fs.BoolVar(&f.force, "force", false, "overwrite files that exist")
	fs.BoolVar(&f.includeDestructive, "include-destructive", false, "with --server: also call tools that may be destructive")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 1 || f.shards < 1 || f.shards > 256 {
		fmt.Fprintln(stderr, "mcptest init: usage: mcptest init [DIR] [--shards 1..256]")
		return 2
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	paths := []string{initproj.SuitePath, initproj.EnvExample, initproj.GitHubPath, initproj.GitLabPath}
	if !f.force {
		var exist []string
		for _, p := range paths {
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
				exist = append(exist, p)
			}
		}
		if len(exist) > 0 {
			fmt.Fprintf(stderr, "mcptest init: %s already exist(s) in %s; pass --force to overwrite\n", strings.Join(exist, ", "), dir)
			return 2
		}
	}
	var secrets []string
	if f.server != "" {
		target, err := f.target()
		if err != nil {
			fmt.Fprintf(stderr, "mcptest init: %v\n", err)
			return 2
		}
		for _, h := range target.Headers {
			if h.Env != "" {
				secrets = append(secrets, h.Env)
			}
		}
		if target.BearerEnv != "" {
			secrets = append(secrets, target.BearerEnv)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintf(stderr, "mcptest init: %v\n", err)
			return 2
		}
		if code := generateSuite(ctx, target, filepath.Join(dir, initproj.SuitePath), 10*time.Second, 4, f.includeDestructive, "mcptest init", stderr); code != 0 {
			return code
		}
	} else if err := writeFile(dir, initproj.SuitePath, initproj.TemplateSuite); err != nil {
		fmt.Fprintf(stderr, "mcptest init: %v\n", err)
		return 2
	}
	files := map[string]string{
		initproj.EnvExample: initproj.EnvFile(secrets),
		initproj.GitHubPath: initproj.GitHub(f.shards, secrets),
		initproj.GitLabPath: initproj.GitLab(f.shards),
	}
	for _, p := range paths[1:] {
		if err := writeFile(dir, p, files[p]); err != nil {
			fmt.Fprintf(stderr, "mcptest init: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "wrote %s in %s\nnext: mcptest run %s\n", strings.Join(paths, ", "), dir, filepath.Join(dir, initproj.SuitePath))
	return 0
}

// writeFile writes a scaffolded file, making its folder.
func writeFile(dir, rel, text string) error {
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
