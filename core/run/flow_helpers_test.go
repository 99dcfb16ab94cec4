package run_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// positiveMatcher passes when the value is a number above zero (durations).
type positiveMatcher struct{}

func (positiveMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	var f float64
	if json.Unmarshal(in.Actual, &f) == nil && f > 0 {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Actual: in.Actual, Note: "not a positive number"}), nil
}

// flowSetup is setup with the matchers flow tests use (eq, positive), and
// the log of what the server received: "LOG" in the suite is replaced by a
// file that a `sh -c "tee -a LOG | DEMO"` server command appends every
// request line to, so a test can count what reached the server.
func flowSetup(t *testing.T, suite string, sel plan.Selection) (*plan.Plan, *plugin.Host, string) {
	t.Helper()
	return flowSetupIn(t, t.TempDir(), suite, sel)
}

// flowSetupIn is flowSetup with the suite (and the log) in dir, so that two
// runs can share a server definition.
func flowSetupIn(t *testing.T, dir, suite string, sel plan.Selection) (*plan.Plan, *plugin.Host, string) {
	t.Helper()
	log := filepath.Join(dir, "requests.log")
	src := strings.ReplaceAll(withDemo(t, suite), "LOG", log)
	path := filepath.Join(dir, "suite.yml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &sdk.Plugin{Name: "flow", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &eqMatcher{}, "positive": positiveMatcher{}}}
	pdir := t.TempDir()
	writeManifest(t, pdir, p)
	reg := plugin.NewRegistry([]plugin.Source{{Dir: pdir}})
	pl, err := plan.BuildWith([]*config.Suite{s}, reg, plan.Options{Run: true, Selection: sel})
	if err != nil {
		t.Fatal(err)
	}
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{})
	t.Cleanup(func() { h.Close(); l.Close() })
	return pl, h, log
}

// flowCalls counts the requests of a method in a server's request log.
func flowCalls(t *testing.T, log, method string) int {
	t.Helper()
	raw, err := os.ReadFile(log)
	if err != nil {
		if os.IsNotExist(err) {
			return 0
		}
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.Contains(line, `"method":"`+method+`"`) {
			n++
		}
	}
	return n
}

// flowResults indexes a report's tests by name.
func flowResults(r *report.Run) map[string]report.Test {
	out := map[string]report.Test{}
	for _, tr := range r.Tests {
		out[tr.Name] = tr
	}
	return out
}

// flowExplain renders a test result for failure messages.
func flowExplain(tr report.Test) string {
	b, _ := json.MarshalIndent(tr, "", "  ")
	return string(b)
}
