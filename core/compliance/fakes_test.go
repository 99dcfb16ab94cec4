package compliance

import (
	"testing"

	"github.com/mcptest/mcptest/internal/testbin"
)

// fakeBin returns the deliberately broken stdio server (testdata/fakeserver),
// switched into one misbehaviour at a time with MCPTEST_FAKE. It is built
// once for the package's tests; in -short mode it skips t instead.
func fakeBin(t testing.TB) string {
	return testbin.Build(t, "github.com/mcptest/mcptest/core/compliance/testdata/fakeserver")
}

// modern is the revision of the stateless era, whose checks (S*) apply
// only to it.
const modern = "2026-07-28"

// fakeCase is one misbehaviour of the fake (MCPTEST_FAKE flags, "" for
// none) and the status a check must report against it.
type fakeCase struct {
	check, flags string
	want         Status
}

// TestFakeCorrect runs every check against the fake with no misbehaviour,
// over each transport and era: each must pass or not apply, which shows
// the checks do not fail a correct server, and the checks listed must
// apply and pass.
func TestFakeCorrect(t *testing.T) {
	for _, c := range []struct {
		name     string
		http     bool
		revision string
		mustPass []string
	}{
		{"stdio", false, "", []string{"J08", "U01", "U02", "U03", "T04", "T07", "R03"}},
		{"stdio/" + modern, false, modern, []string{"S01", "S02", "S03", "S04", "S06", "S08", "S11", "R01", "T01"}},
		{"http", true, "", []string{"H01", "H02", "H03", "H04", "H05", "H06"}},
		{"http/" + modern, true, modern, []string{"S01", "S03", "S04", "S05", "J04", "H01", "H06"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := runChecks(t, fakeTarget(t, c.http, ""), Options{Revision: c.revision})
			for id, r := range rs {
				if r.Status != Pass && r.Status != NotApplicable {
					t.Errorf("%s: %s", id, r.Status)
				}
			}
			for _, id := range c.mustPass {
				if rs[id].Status != Pass {
					t.Errorf("%s should apply to the fake and pass, got %s: %s", id, rs[id].Status, rs[id].Message)
				}
			}
			if t.Failed() {
				t.Logf("\n%s", summary(rs))
			}
		})
	}
}

// TestFakeMisbehaviours runs each table of misbehaviours over its
// transport: every check must report the status its case gives. Over
// stdio on the classic era, each result must also carry its evidence.
func TestFakeMisbehaviours(t *testing.T) {
	for _, run := range []struct {
		name     string
		http     bool
		revision string // "" picks by check: S* checks run on the modern era
		evidence bool
		cases    []fakeCase
	}{
		{"stdio", false, "", true, brokenCases},
		{"stdio/" + modern, false, modern, false, modernBrokenCases},
		{"http", true, "", false, httpBrokenCases},
		{"http/lenient", true, "", false, lenientHTTPCases},
		{"http/sse", true, "", false, sseCases},
	} {
		for _, c := range run.cases {
			t.Run(run.name+"/"+c.check+"/"+c.flags, func(t *testing.T) {
				t.Parallel()
				opts := Options{Revision: run.revision, Only: []string{c.check}}
				if opts.Revision == "" && c.check[0] == 'S' {
					opts.Revision = modern
				}
				rs := runChecks(t, fakeTarget(t, run.http, c.flags), opts)
				r := rs[c.check]
				if r.Status != c.want {
					t.Fatalf("got %s, want %s\n%s", r.Status, c.want, summary(rs))
				}
				if run.evidence && len(r.Frames) == 0 {
					t.Errorf("no evidence frames recorded")
				}
			})
		}
	}
}

// fakeTarget starts the fake with flags (MCPTEST_FAKE; "" for none), over
// HTTP on a free port or as a stdio command.
func fakeTarget(t *testing.T, http bool, flags string) Target {
	t.Helper()
	var env []string
	if flags != "" {
		env = []string{"MCPTEST_FAKE=" + flags}
	}
	if http {
		return Target{URL: startServer(t, fakeBin(t), env, "--http", "127.0.0.1:0")}
	}
	return Target{Command: []string{fakeBin(t)}, Env: env}
}
