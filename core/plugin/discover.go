package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	// Trusted is set when the directory is at or below a directory given to
	// --trust-plugin-dir: its files are then not checked for ownership.
	Trusted bool
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
	// TrustedDirs come from --trust-plugin-dir: plugin directories at or
	// below them are used even when another user owns or may write them.
	TrustedDirs []string
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
		out = append(out, Source{Dir: dir, Priority: len(out), Origin: origin, Trusted: trustedBy(dir, opts.TrustedDirs)})
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
	// Untrusted says why the plugin's files cannot be trusted (another user
	// owns or may write its directory, folder, manifest or executable); nil
	// when they can. An untrusted plugin still takes part in resolution, so
	// that a key it offers is refused rather than silently served by a
	// lower-priority plugin.
	Untrusted error
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
// manifests are returned as problems so `plugins list` can show them. Each
// plugin's directory, folder, manifest and executable are checked for
// ownership unless its source is trusted (Found.Untrusted).
func Discover(sources []Source) ([]*Found, []Problem) {
	// The folders are listed first, in order; their manifests are then
	// read, parsed and checked in parallel (parsing and schema validation
	// are most of a run's discovery time) and the results kept in order.
	var slots []discoverSlot
	var problems []Problem
	for _, src := range sources {
		entries, err := os.ReadDir(src.Dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Path: src.Dir, Err: err})
			}
			continue
		}
		var srcErr error
		if !src.Trusted {
			srcErr = checkPathOwnership("plugin directory", src.Dir, src.Dir)
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			slots = append(slots, discoverSlot{src: src, srcErr: srcErr, dir: filepath.Join(src.Dir, e.Name())})
		}
	}
	parallelEach(len(slots), func(i int) { slots[i].read(sharedManifests) })
	sharedManifests.save()
	var found []*Found
	for _, sl := range slots {
		switch {
		case sl.problem != nil:
			problems = append(problems, *sl.problem)
		case sl.found != nil:
			found = append(found, sl.found)
		}
	}
	return found, problems
}

// discoverSlot is one plugin folder being read by Discover.
type discoverSlot struct {
	src    Source
	srcErr error
	dir    string

	found   *Found
	problem *Problem
}

// read reads and checks the folder's manifest (parsed through cache); a
// folder without one is left empty.
func (sl *discoverSlot) read(cache *manifestCache) {
	mpath := filepath.Join(sl.dir, ManifestFile)
	if _, err := os.Lstat(mpath); err != nil {
		return
	}
	raw, info, err := readManifestFile(mpath)
	if err != nil {
		sl.problem = &Problem{Path: mpath, Err: fmt.Errorf("%w: %w", ErrInvalidManifest, err)}
		return
	}
	m, err := cache.parse(raw)
	if err != nil {
		sl.problem = &Problem{Path: mpath, Err: err}
		return
	}
	f := &Found{Manifest: m, Dir: sl.dir, ManifestPath: mpath, Source: sl.src, Untrusted: sl.srcErr}
	if f.Untrusted == nil && !sl.src.Trusted {
		f.Untrusted = checkFolderTrust(f, info)
	}
	sl.found = f
}

// parallelEach calls f(0..n-1) on GOMAXPROCS goroutines and returns when
// all calls have.
func parallelEach(n int, f func(int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// checkFolderTrust checks the plugin folder, the manifest (as opened) and
// the executable, if there is one yet.
func checkFolderTrust(f *Found, manifest os.FileInfo) error {
	if err := checkPathOwnership("plugin folder", f.Dir, f.Source.Dir); err != nil {
		return err
	}
	if err := checkOwnership("manifest", f.ManifestPath, manifest, f.Source.Dir); err != nil {
		return err
	}
	return checkPathOwnership("executable", f.Executable(), f.Source.Dir)
}

// SearchedDirs renders the sources for an error message.
func SearchedDirs(sources []Source) string {
	var b strings.Builder
	for _, s := range sources {
		fmt.Fprintf(&b, "\n  %s (%s)", s.Dir, s.Origin)
	}
	return b.String()
}
