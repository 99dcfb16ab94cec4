// Package watch re-runs suites when what they depend on changes: the
// suite file, the files it imports, and the server programs and files its
// servers' commands name (a binary being rebuilt, a mock manifest being
// edited). It watches the folders holding those files, since editors and
// compilers replace a file by renaming a new one over it, and re-runs
// only the suites a change affects, once a burst of events has settled.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/mcptest/mcptest/core/config"
)

// ErrNothingToWatch is returned when no suite file can be watched.
var ErrNothingToWatch = errors.New("nothing to watch")

// Options configure Watch.
type Options struct {
	// Suites are the suite files given on the command line.
	Suites []string
	// Run runs the given suites once; its result is only reported.
	Run func(ctx context.Context, suites []string) int
	// Out receives the watcher's own lines ("watching 3 files ...").
	Out io.Writer
	// Clear is written before each run (the clear-screen sequence on a
	// terminal; empty otherwise).
	Clear string
	// Settle is how long events must stop before a re-run (default
	// 200ms): a save or a build touches a file several times.
	Settle time.Duration
}

// Deps returns the absolute paths whose change should re-run the suite:
// the suite, its imports, and the server commands' program and file
// arguments. A suite that does not load depends on itself alone, so
// fixing it triggers the run that reports the fix.
func Deps(suite string) []string {
	abs, err := filepath.Abs(suite)
	if err != nil {
		abs = suite
	}
	deps := map[string]bool{abs: true}
	s, err := config.Load(suite)
	if err == nil {
		for _, imp := range s.Imports {
			deps[imp] = true
		}
		for _, srv := range s.Servers {
			for i, part := range srv.Command {
				if p := fileArg(part, i == 0); p != "" {
					deps[p] = true
				}
			}
		}
	}
	out := make([]string, 0, len(deps))
	for d := range deps {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// fileArg returns the absolute path of a command part that names an
// existing regular file (relative parts resolve against the working
// folder, as server commands do); the program may also be found on PATH.
func fileArg(part string, program bool) string {
	if part == "" || strings.HasPrefix(part, "-") {
		return ""
	}
	if program && !strings.ContainsRune(part, filepath.Separator) {
		p, err := exec.LookPath(part)
		if err != nil {
			return ""
		}
		part = p
	}
	abs, err := filepath.Abs(part)
	if err != nil {
		return ""
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return abs
}

// Watch runs every suite, then re-runs the affected suites after each
// change until ctx ends.
func Watch(ctx context.Context, opt Options) error {
	if len(opt.Suites) == 0 {
		return ErrNothingToWatch
	}
	if opt.Settle <= 0 {
		opt.Settle = 200 * time.Millisecond
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer w.Close()
	watched := map[string]bool{}
	var bySuite map[string][]string
	refresh := func() {
		bySuite = map[string][]string{}
		n := 0
		for _, s := range opt.Suites {
			bySuite[s] = Deps(s)
			for _, d := range bySuite[s] {
				n++
				dir := filepath.Dir(d)
				if !watched[dir] {
					if err := w.Add(dir); err == nil {
						watched[dir] = true
					} else {
						fmt.Fprintf(opt.Out, "watch: cannot watch %s: %v\n", dir, err)
					}
				}
			}
		}
		fmt.Fprintf(opt.Out, "watch: %d suite(s), %d file(s) watched; Ctrl-C stops\n", len(opt.Suites), n)
	}
	run := func(suites []string) {
		if opt.Clear != "" {
			fmt.Fprint(opt.Out, opt.Clear)
		}
		fmt.Fprintf(opt.Out, "watch: running %s\n", strings.Join(suites, " "))
		code := opt.Run(ctx, suites)
		fmt.Fprintf(opt.Out, "watch: exit %d at %s; waiting for changes\n", code, time.Now().Format("15:04:05"))
	}
	refresh()
	run(opt.Suites)
	changed := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			fmt.Fprintf(opt.Out, "watch: %v\n", err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename|fsnotify.Remove|fsnotify.Chmod) == 0 {
				continue
			}
			changed[filepath.Clean(ev.Name)] = true
			timer.Reset(opt.Settle)
		case <-timer.C:
			affected := Affected(bySuite, changed, opt.Suites)
			clear(changed)
			if len(affected) == 0 {
				continue
			}
			run(affected)
			// The run may have changed what the suites import.
			refresh()
		}
	}
}

// Affected returns, in command-line order, the suites that depend on a
// changed path.
func Affected(bySuite map[string][]string, changed map[string]bool, order []string) []string {
	var out []string
	for _, s := range order {
		for _, d := range bySuite[s] {
			if changed[d] {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
