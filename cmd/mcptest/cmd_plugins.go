package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcptest/mcptest/core/plugin"
)

func cmdPlugins(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: mcptest plugins list|install|verify|new [flags]")
		fmt.Fprintln(stderr, "  list              show every plugin found, where from, its keys, checksum and shadowing")
		fmt.Fprintln(stderr, "  install PATH      copy a plugin binary in and write its manifest (--dir, default ./.mcptest/plugins;")
		fmt.Fprintln(stderr, "                    --force to install despite a key conflict or an untrusted directory)")
		fmt.Fprintln(stderr, "  verify            check every plugin's ownership, checksum and key conflicts, and start it to compare")
		fmt.Fprintln(stderr, "                    it with its manifest")
		fmt.Fprintln(stderr, "  new KIND NAME     write a new plugin module (KIND: matcher, reporter, provider or scorer) with a test")
		fmt.Fprintln(stderr, "                    and a Makefile; --sdk DIR points it at a checkout's sdk/ until the SDK is published")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "list":
		return pluginsList(args[1:], stdout, stderr)
	case "install":
		return pluginsInstall(ctx, args[1:], stdout, stderr)
	case "verify":
		return pluginsVerify(ctx, args[1:], stdout, stderr)
	case "new":
		return pluginsNew(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "mcptest plugins: unknown subcommand %q", args[0])
	if s := plugin.Suggest(args[0], []string{"list", "install", "verify", "new"}); s != "" {
		fmt.Fprintf(stderr, " (did you mean %q?)", s)
	}
	fmt.Fprintln(stderr)
	return 2
}

// pluginListing is one plugin as `plugins list --json` prints it.
type pluginListing struct {
	Name       string             `json:"name"`
	Version    string             `json:"version"`
	Dir        string             `json:"dir"`
	Source     string             `json:"source"`
	Components []componentListing `json:"components"`
	Checksum   string             `json:"checksum"`
	// Trust is "ok", "refused: why" or "not checked: why".
	Trust      string          `json:"trust"`
	Conflicts  []shadowListing `json:"conflicts,omitempty"`
	Shadows    []shadowListing `json:"shadows,omitempty"`
	ShadowedBy []shadowListing `json:"shadowed_by,omitempty"`
	Hidden     bool            `json:"hidden,omitempty"`
}

type componentListing struct {
	Kind string   `json:"kind"`
	Keys []string `json:"keys"`
}

type shadowListing struct {
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	Plugin string `json:"plugin"`
	Dir    string `json:"dir"`
}

func pluginsList(args []string, stdout, stderr io.Writer) int {
	var pf pluginFlags
	fs := newFlagSet("plugins list", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	pf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	reg := plugin.NewRegistry(pf.sources())
	var list []pluginListing
	add := func(f *plugin.Found, hidden bool) {
		l := pluginListing{
			Name: f.Manifest.Name, Version: f.Manifest.Version, Dir: f.Dir,
			Source: f.Source.Origin, Checksum: plugin.ChecksumStatus(f), Hidden: hidden,
			Trust: plugin.TrustState(f),
		}
		for _, c := range reg.ConflictsOf(f) {
			for _, o := range c.Plugins {
				if o != f {
					l.Conflicts = append(l.Conflicts, shadowListing{Kind: c.Kind, Key: c.Key, Plugin: o.Label(), Dir: o.Dir})
				}
			}
		}
		for _, c := range f.Manifest.Components {
			l.Components = append(l.Components, componentListing{Kind: c.Kind, Keys: c.Keys})
		}
		for _, s := range reg.Shadows(f) {
			l.Shadows = append(l.Shadows, shadowListing{Kind: s.Kind, Key: s.Key, Plugin: s.Other.Label(), Dir: s.Other.Dir})
		}
		for _, s := range reg.ShadowedBy(f) {
			l.ShadowedBy = append(l.ShadowedBy, shadowListing{Kind: s.Kind, Key: s.Key, Plugin: s.Other.Label(), Dir: s.Other.Dir})
		}
		list = append(list, l)
	}
	for _, f := range reg.Plugins {
		add(f, false)
	}
	for _, f := range reg.Hidden() {
		add(f, true)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"plugins": list, "searched": reg.Sources})
	} else {
		printListing(stdout, reg, list)
	}
	warnProblems(reg, stderr)
	warnConflicts(reg, stderr)
	if len(reg.Problems) > 0 || len(reg.Conflicts()) > 0 || len(reg.Untrusted()) > 0 {
		return 2
	}
	return 0
}

// warnConflicts prints every key two plugins of one directory offer: a run
// that uses such a key fails, so list, verify and install say it up front.
func warnConflicts(reg *plugin.Registry, w io.Writer) {
	for _, c := range reg.Conflicts() {
		var who []string
		for _, p := range c.Plugins {
			who = append(who, p.Label()+" ("+p.Dir+")")
		}
		fmt.Fprintf(w, "mcptest: conflict: %s %q is offered by several plugins in one directory: %s; remove all but one\n",
			c.Kind, c.Key, strings.Join(who, ", "))
	}
}

func printListing(w io.Writer, reg *plugin.Registry, list []pluginListing) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no plugins found; directories searched:"+plugin.SearchedDirs(reg.Sources))
		return
	}
	for _, l := range list {
		fmt.Fprintf(w, "%s %s  (%s) %s\n", l.Name, l.Version, l.Source, l.Dir)
		if l.Hidden {
			fmt.Fprintln(w, "  hidden: a plugin of the same name in a higher-priority directory wins")
		}
		for _, c := range l.Components {
			fmt.Fprintf(w, "  %-9s %s\n", c.Kind+":", strings.Join(c.Keys, ", "))
		}
		fmt.Fprintf(w, "  checksum: %s\n", l.Checksum)
		fmt.Fprintf(w, "  trust:    %s\n", l.Trust)
		for _, c := range l.Conflicts {
			fmt.Fprintf(w, "  conflict: %s %s also offered by %s (%s)\n", c.Kind, c.Key, c.Plugin, c.Dir)
		}
		for _, s := range l.Shadows {
			fmt.Fprintf(w, "  shadows:  %s %s of %s (%s)\n", s.Kind, s.Key, s.Plugin, s.Dir)
		}
		for _, s := range l.ShadowedBy {
			fmt.Fprintf(w, "  shadowed: %s %s by %s (%s)\n", s.Kind, s.Key, s.Plugin, s.Dir)
		}
	}
}

func pluginsInstall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plugins install", stderr)
	dir := fs.String("dir", filepath.Join(".mcptest", "plugins"), "plugin directory to install into")
	force := fs.Bool("force", false, "install even if another plugin of the directory offers one of its keys, or the directory would not be trusted")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: mcptest plugins install [--dir DIR] [--force] PATH")
		return 2
	}
	f, err := plugin.InstallWith(ctx, fs.Arg(0), *dir, plugin.InstallOptions{Force: *force})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest plugins install: %v\n", err)
		return 2
	}
	// After a forced install, say what it broke.
	warnConflicts(plugin.NewRegistry([]plugin.Source{{Dir: *dir, Origin: "install"}}), stderr)
	fmt.Fprintf(stdout, "installed %s into %s\n", f.Label(), f.Dir)
	for _, c := range f.Manifest.Components {
		fmt.Fprintf(stdout, "  %-9s %s\n", c.Kind+":", strings.Join(c.Keys, ", "))
	}
	return 0
}

func pluginsVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var pf pluginFlags
	fs := newFlagSet("plugins verify", stderr)
	pf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	reg := plugin.NewRegistry(pf.sources())
	bad := len(reg.Problems)
	for _, p := range reg.Problems {
		fmt.Fprintf(stdout, "FAIL %s: %v\n", p.Path, p.Err)
	}
	for _, c := range reg.Conflicts() {
		bad++
		var who []string
		for _, p := range c.Plugins {
			who = append(who, p.Label()+" ("+p.Dir+")")
		}
		fmt.Fprintf(stdout, "FAIL conflict: %s %q is offered by several plugins in one directory: %s; remove all but one\n",
			c.Kind, c.Key, strings.Join(who, ", "))
	}
	host := plugin.NewHost(pf.launcher(stderr), plugin.HostOptions{CallTimeout: pf.timeout})
	defer host.Close()
	for _, f := range reg.Plugins {
		if f.Untrusted != nil {
			// Never start a refused plugin, not even to describe it.
			bad++
			fmt.Fprintf(stdout, "FAIL %s: trust: %s\n", f.Label(), plugin.TrustState(f))
			continue
		}
		if _, err := host.Description(ctx, f); err != nil {
			bad++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", f.Label(), err)
			continue
		}
		fmt.Fprintf(stdout, "ok   %s (%s) trust: %s\n", f.Label(), f.Dir, plugin.TrustState(f))
	}
	if bad > 0 {
		return 2
	}
	return 0
}
