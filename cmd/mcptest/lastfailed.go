package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/safefile"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// The last-failed cache, like pytest's: after every run, the project's
// .mcptest/last-failed.json remembers, per suite file, the tests that
// failed or errored. A test leaves the record when it passes; one the run
// did not reach (deselected, skipped) keeps what it had. --last-failed
// runs only the recorded tests.

// lastFailedFile is the cache's path, relative to the directory mcptest
// runs in (the project, as for ./.mcptest/plugins).
var lastFailedFile = filepath.Join(".mcptest", "last-failed.json")

// lastFailedLimit bounds the cache file; it holds test ids only.
const lastFailedLimit = 16 << 20

// lastFailed is the cache's content. Suites are keyed by absolute path so
// that `run s.yml` and `run ./s.yml` share a record; tests by their id
// without the suite file part, for the same reason.
type lastFailed struct {
	Version int                         `json:"version"`
	Suites  map[string]*lastFailedSuite `json:"suites"`
	// read is the file as it was read, nil when there was none: a record
	// that would be written back unchanged is not written at all.
	read []byte
}

// lastFailedSuite is the record of one suite file.
type lastFailedSuite struct {
	Failed []string `json:"failed"`
}

// readLastFailed reads the cache; a missing file is an empty record.
func readLastFailed(path string) (*lastFailed, error) {
	lf := &lastFailed{Version: 1, Suites: map[string]*lastFailedSuite{}}
	raw, err := safefile.ReadFile(path, lastFailedLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return lf, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, lf); err != nil {
		return nil, fmt.Errorf("%s: %w (delete the file to start a new record)", path, err)
	}
	lf.read = raw
	if lf.Suites == nil {
		lf.Suites = map[string]*lastFailedSuite{}
	}
	return lf, nil
}

// suiteKey is the cache key of a suite file.
func suiteKey(file string) string {
	if abs, err := filepath.Abs(file); err == nil {
		return abs
	}
	return file
}

// localID is a test id without its suite file part.
func localID(file, id string) string { return strings.TrimPrefix(id, file+"::") }

// record updates the cache with a run's verdicts.
func (lf *lastFailed) record(run *rpt.Run) {
	for _, t := range run.Tests {
		key := suiteKey(t.File)
		s := lf.Suites[key]
		if s == nil {
			s = &lastFailedSuite{Failed: []string{}}
			lf.Suites[key] = s
		}
		id := localID(t.File, t.ID)
		switch t.Status {
		case rpt.StatusFailed, rpt.StatusErrored:
			if !slices.Contains(s.Failed, id) {
				s.Failed = append(s.Failed, id)
			}
		case rpt.StatusPassed, rpt.StatusWarned:
			s.Failed = slices.DeleteFunc(s.Failed, func(x string) bool { return x == id })
		}
	}
	// Forget suites with nothing recorded and suites that are gone (a
	// temporary file, a renamed suite), so the record stays small.
	for key, s := range lf.Suites {
		if _, err := os.Stat(key); len(s.Failed) == 0 || errors.Is(err, fs.ErrNotExist) {
			delete(lf.Suites, key)
		}
	}
}

// write replaces the cache file whole (a temporary file renamed over it),
// so an interrupted write never leaves half a record. It writes nothing
// when the file would not change, nor when there is no file and nothing
// to record: most runs pass, and a passing run in a folder without a
// record must not create .mcptest there, nor pay a file replacement at
// its end.
func (lf *lastFailed) write(path string) error {
	if lf.read == nil && len(lf.Suites) == 0 {
		return nil
	}
	raw, err := json.MarshalIndent(lf, "", "  ")
	if err != nil {
		return err
	}
	raw = append(raw, '\n')
	if bytes.Equal(raw, lf.read) {
		return nil
	}
	return safefile.WriteAtomic(path, raw, 0o755)
}

// recordLastFailed updates the cache after a run; a cache that cannot be
// written is a warning, never a change of the run's verdict.
func recordLastFailed(run *rpt.Run, stderr io.Writer) {
	lf, err := readLastFailed(lastFailedFile)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest: warning: the last-failed record was not updated: %v\n", err)
		return
	}
	lf.record(run)
	if err := lf.write(lastFailedFile); err != nil {
		fmt.Fprintf(stderr, "mcptest: warning: the last-failed record was not updated: %v\n", err)
	}
}

// applyLastFailed narrows the plan to the tests the record says failed
// last time. With no such test, the plan stays whole and a note says so,
// as pytest does. It returns false when the record cannot be read.
func applyLastFailed(p *plan.Plan, stderr io.Writer) bool {
	lf, err := readLastFailed(lastFailedFile)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest run: --last-failed: %v\n", err)
		return false
	}
	failed := map[string]bool{}
	for _, t := range p.Tests {
		if s := lf.Suites[suiteKey(t.Suite.File)]; s != nil && slices.Contains(s.Failed, localID(t.Suite.File, t.ID)) {
			failed[t.ID] = true
		}
	}
	if len(failed) == 0 {
		fmt.Fprintf(stderr, "mcptest: --last-failed: no failed tests recorded for these suites in %s; running all %d selected tests\n", lastFailedFile, len(p.Tests))
		return true
	}
	before := len(p.Tests)
	n := p.Keep(func(t *plan.Test) bool { return failed[t.ID] })
	msg := fmt.Sprintf("mcptest: --last-failed: running %d of %d tests that failed last time", n, before)
	if extra := len(p.Tests) - n; extra > 0 {
		msg += fmt.Sprintf(" (and %d test(s) whose captures they use)", extra)
	}
	fmt.Fprintln(stderr, msg)
	return true
}
