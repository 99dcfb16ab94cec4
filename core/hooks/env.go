package hooks

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/config"
)

// Environment variables mcptest sets for hooks and transforms.
const (
	// EnvHookPhase names the phase a hook runs in.
	EnvHookPhase = "MCPTEST_HOOK_PHASE"
	// EnvTransformPhase says which transform runs: request, response or
	// assertion.
	EnvTransformPhase = "MCPTEST_TRANSFORM_PHASE"
	// EnvSuiteFile and EnvSuiteDir locate the suite, so a script can find
	// files beside it whatever directory mcptest runs from.
	EnvSuiteFile = "MCPTEST_SUITE_FILE"
	EnvSuiteDir  = "MCPTEST_SUITE_DIR"
	// EnvTestName and EnvTestID name the current test (per-test hooks and
	// transforms only).
	EnvTestName = "MCPTEST_TEST_NAME"
	EnvTestID   = "MCPTEST_TEST_ID"
)

// suiteEnvs caches, per suite, the environment hooks and transforms start
// from, so a transform run per test does not rebuild it.
type suiteEnvs struct {
	mu sync.Mutex
	m  map[*config.Suite]*suiteEnv
}

// suiteEnv is the environment of one suite's commands.
type suiteEnv struct {
	// base is the process environment followed by the dotenv values the
	// process environment does not set, and the suite's location.
	base []string
	// dotenv holds those dotenv values, which context hooks see as env.
	dotenv map[string]string
}

// of returns the environment of a suite's commands.
func (e *suiteEnvs) of(s *config.Suite) *suiteEnv {
	e.mu.Lock()
	defer e.mu.Unlock()
	if se := e.m[s]; se != nil {
		return se
	}
	if e.m == nil {
		e.m = map[*config.Suite]*suiteEnv{}
	}
	se := newSuiteEnv(s, os.Environ())
	e.m[s] = se
	return se
}

// newSuiteEnv builds a suite's command environment on top of proc. The
// process environment wins over the dotenv files, as it does for
// variable interpolation.
func newSuiteEnv(s *config.Suite, proc []string) *suiteEnv {
	set := make(map[string]bool, len(proc))
	for _, kv := range proc {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	se := &suiteEnv{dotenv: map[string]string{}}
	for k, v := range s.DotenvValues() {
		if !set[k] {
			se.dotenv[k] = v
		}
	}
	se.base = slices.Clip(append(slices.Clone(proc), sortedEnv(se.dotenv)...))
	file, dir := s.File, s.Dir
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	se.base = append(se.base, EnvSuiteFile+"="+file, EnvSuiteDir+"="+dir)
	return se
}

// with returns the base environment followed by extra NAME=value entries,
// which override it (exec keeps the last value of a repeated name).
func (se *suiteEnv) with(extra ...string) []string {
	return append(slices.Clip(se.base), extra...)
}

// sortedEnv renders a map as NAME=value entries in name order.
func sortedEnv(m map[string]string) []string {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}
