package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// PathEnv names the environment variable holding extra plugin directories,
// separated like PATH.
const PathEnv = "MCPTEST_PLUGIN_PATH"

// Source is one directory searched for plugins. Lower Priority numbers win.
type Source struct {
	Dir      string
	Priority int
	// Origin says why the directory is searched: "--plugin-dir",
	// "MCPTEST_PLUGIN_PATH", "project", "user", "bundled".
	Origin string
}

// SearchOptions says where to look for plugins.
type SearchOptions struct {
	// Dirs come from --plugin-dir, in the order given.
	Dirs []string
	// Env is consulted for MCPTEST_PLUGIN_PATH and XDG_DATA_HOME/HOME; nil
	// means os.Getenv.
	Env func(string) string
	// WorkDir is the project directory (./.mcptest/plugins); "" means the
	// current directory.
	WorkDir string
	// Executable is the mcptest binary, whose folder holds the bundled
	// plugins; "" means os.Executable.
	Executable string
	// NoDefaults searches only Dirs and MCPTEST_PLUGIN_PATH.
	NoDefaults bool
}

// Sources lists the plugin directories in priority order: --plugin-dir,
// MCPTEST_PLUGIN_PATH, ./.mcptest/plugins, $XDG_DATA_HOME/mcptest/plugins,
// then the bundled folder beside the executable and ../lib/mcptest/plugins.
func Sources(opts SearchOptions) []Source {
	getenv := opts.Env
	if getenv == nil {
		getenv = os.Getenv
	}
	var out []Source
	add := func(dir, origin string) {
		if dir == "" {
			return
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		for _, s := range out {
			if s.Dir == dir {
				return
			}
		}
		out = append(out, Source{Dir: dir, Priority: len(out), Origin: origin})
	}
	for _, d := range opts.Dirs {
		add(d, "--plugin-dir")
	}
	for _, d := range filepath.SplitList(getenv(PathEnv)) {
		add(d, PathEnv)
	}
	if opts.NoDefaults {
		return out
	}
	wd := opts.WorkDir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	add(filepath.Join(wd, ".mcptest", "plugins"), "project")
	if data := userDataDir(getenv); data != "" {
		add(filepath.Join(data, "mcptest", "plugins"), "user")
	}
	exe := opts.Executable
	if exe == "" {
		exe, _ = os.Executable()
	}
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		add(filepath.Join(dir, "mcptest-plugins"), "bundled")
		add(filepath.Join(dir, "..", "lib", "mcptest", "plugins"), "bundled")
	}
	return out
}

func userDataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share")
	}
	return ""
}

// Found is a plugin folder with a readable manifest.
type Found struct {
	Manifest *Manifest
	// Dir is the plugin's folder; ManifestPath its manifest.
	Dir          string
	ManifestPath string
	Source       Source
}

// Executable returns the absolute path of the plugin binary.
func (f *Found) Executable() string { return filepath.Join(f.Dir, f.Manifest.Executable) }

// Label identifies the plugin in messages: name@version.
func (f *Found) Label() string { return f.Manifest.Name + "@" + f.Manifest.Version }

// Problem is a plugin folder that could not be used.
type Problem struct {
	Path string
	Err  error
}

// Discover reads every plugin folder of every source. Folders without a
// manifest are ignored (they may be anything); unreadable or invalid
// manifests are returned as problems so `plugins list` can show them.
func Discover(sources []Source) ([]*Found, []Problem) {
	var found []*Found
	var problems []Problem
	for _, src := range sources {
		entries, err := os.ReadDir(src.Dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Path: src.Dir, Err: err})
			}
			continue
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			dir := filepath.Join(src.Dir, e.Name())
			mpath := filepath.Join(dir, ManifestFile)
			if _, err := os.Stat(mpath); err != nil {
				continue
			}
			m, err := ReadManifest(mpath)
			if err != nil {
				problems = append(problems, Problem{Path: mpath, Err: err})
				continue
			}
			found = append(found, &Found{Manifest: m, Dir: dir, ManifestPath: mpath, Source: src})
		}
	}
	return found, problems
}

// SearchedDirs renders the sources for an error message.
func SearchedDirs(sources []Source) string {
	var b strings.Builder
	for _, s := range sources {
		fmt.Fprintf(&b, "\n  %s (%s)", s.Dir, s.Origin)
	}
	return b.String()
}
