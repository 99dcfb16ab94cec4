package e2e

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Start-up budgets, in allocations made by package initialisation (what
// runs before main). Allocation counts do not depend on machine load, so
// unlike times they can be asserted; they track the time closely (see
// docs/performance.md). Measured when they were set: mcptest 4,949 in
// all (31,163 before the meta-schemas and regexps became lazy), the text
// and json plugins ~1,800 (~3,450 while they linked go-plugin), our
// largest package 299 (core/config).
const (
	// initAllocsOurs caps any one of our packages: a regexp with a bounded
	// repeat or a schema compiled in an init costs thousands.
	initAllocsOurs = 500
	// initAllocsJSONSchema caps the jsonschema copy, which compiled every
	// draft's meta-schema in its init (~21,000) before third_party/.
	initAllocsJSONSchema = 1000
	// initAllocsMcptest and initAllocsPlugin cap the sums, third-party
	// packages included, so a new dependency with a heavy init shows.
	initAllocsMcptest = 7500
	initAllocsPlugin  = 2500
	// initAllocsCompliance caps core/compliance, whose sixty-odd checks
	// are registered on first use: registered in its inits, they cost
	// every mcptest process over a hundred allocations.
	initAllocsCompliance = 60
)

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg    string
	allocs int
}

// initTrace runs exe with GODEBUG=inittrace=1 and returns the cost of each
// package init it reports. Plugins started without the magic cookie print
// a notice and exit, after their inits have run.
func initTrace(t *testing.T, exe string, args ...string) []initCost {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(cleanEnv(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput() // a plugin without the cookie exits 1
	var costs []initCost
	for _, line := range strings.Split(string(out), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("%s: unreadable inittrace line %q", exe, line)
		}
		costs = append(costs, initCost{pkg: f[1], allocs: n})
	}
	if len(costs) < 50 {
		t.Fatalf("%s printed %d inittrace lines, expected the whole program's:\n%s", exe, len(costs), out)
	}
	return costs
}

// mcptest and the plugins a default run launches do little before main:
// no package of ours, nor the jsonschema copy, compiles anything at init,
// and the bundle is built without cgo (a dynamically linked Go program
// starts several milliseconds later).
func TestStartupStaysCheap(t *testing.T) {
	plugins := filepath.Join(binDir, "mcptest-plugins")
	for _, p := range []struct {
		name, exe string
		args      []string
		total     int
	}{
		{"mcptest version", filepath.Join(binDir, "mcptest"), []string{"version"}, initAllocsMcptest},
		{"text matcher plugin", filepath.Join(plugins, "text", "mcptest-plugin-text"), nil, initAllocsPlugin},
		{"json reporter plugin", filepath.Join(plugins, "json", "mcptest-plugin-json"), nil, initAllocsPlugin},
	} {
		t.Run(p.name, func(t *testing.T) {
			info, err := buildinfo.ReadFile(p.exe)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range info.Settings {
				if s.Key == "CGO_ENABLED" && s.Value != "0" {
					t.Errorf("%s was built with CGO_ENABLED=%s; the bundle builds without cgo", p.exe, s.Value)
				}
			}
			total := 0
			var worst []string
			for _, c := range initTrace(t, p.exe, p.args...) {
				total += c.allocs
				switch {
				case strings.HasPrefix(c.pkg, "github.com/mcptest/mcptest") && c.allocs > initAllocsOurs:
					worst = append(worst, fmt.Sprintf("%s: %d allocations (budget %d)", c.pkg, c.allocs, initAllocsOurs))
				case c.pkg == "github.com/mcptest/mcptest/core/compliance" && c.allocs > initAllocsCompliance:
					worst = append(worst, fmt.Sprintf("%s: %d allocations (budget %d): are the checks registered in init again?", c.pkg, c.allocs, initAllocsCompliance))
				case c.pkg == "github.com/santhosh-tekuri/jsonschema/v6" && c.allocs > initAllocsJSONSchema:
					worst = append(worst, fmt.Sprintf("%s: %d allocations (budget %d): are the meta-schemas compiled eagerly again?", c.pkg, c.allocs, initAllocsJSONSchema))
				}
			}
			for _, w := range worst {
				t.Errorf("package init too heavy: %s; make it lazy (sync.OnceValue)", w)
			}
			if total > p.total {
				t.Errorf("package inits allocate %d times in all (budget %d); GODEBUG=inittrace=1 %s lists them", total, p.total, p.exe)
			}
		})
	}
}

// MCPTEST_TIMELINE=FILE gives the phases of a run in the order they
// happen, each with the monotonic clock and the process id, for work on
// cold start (docs/performance.md): the plan, the gate, the server, the
// plugins, the end of the tests, of the reports, of the servers and of the
// plugins, and the exit.
func TestTimelineMarksTheRunsPhases(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: echo
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "hi"}
`)
	// contains, not exact: a passing exact assertion whose argument was
	// vetted before never starts the text plugin (reflexive_test.go).
	path := filepath.Join(t.TempDir(), "timeline")
	// junit, not json: mcptest writes the json report itself
	// (reportcanonical_test.go), so no json plugin starts.
	r := mcptestEnv(t, []string{"MCPTEST_TIMELINE=" + path}, "run", suite, "--reporter", "junit", "-o", os.DevNull)
	if r.code != 0 {
		t.Fatalf("run: %s", r)
	}
	raw := readFile(t, path)
	var names []string
	last := 0.0
	for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
		f := strings.SplitN(line, " ", 3)
		sec, err := strconv.ParseFloat(f[0], 64)
		if len(f) != 3 || err != nil || sec < last {
			t.Fatalf("timeline line %q (after %f) in:\n%s", line, last, raw)
		}
		last = sec
		names = append(names, f[2])
	}
	// The plugins' lines fall between these, where their starts happen.
	want := []string{"main", "planned", "gate-passed", "server-spawned demo", "server-ready demo", "tests-done",
		"reports-done", "servers-stopped", "plugins-stopped", "exit"}
	i := 0
	for _, n := range names {
		if i < len(want) && n == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Fatalf("timeline lacks %q in order; it has %q", want[i], names)
	}
	for _, p := range []string{"plugin-launch text", "plugin-described text", "plugin-launch junit", "plugin-described junit"} {
		if !slices.Contains(names, p) {
			t.Errorf("timeline lacks %q: %q", p, names)
		}
	}
}
