package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestServersOfTwoSuitesAndTheirShards: two suites that each declare a
// server "demo" list it once per suite, each entry naming its suite; and
// the merge of the run's shards equals the unsharded report apart from
// timings, warnings and per-suite servers included.
func TestServersOfTwoSuitesAndTheirShards(t *testing.T) {
	dir := t.TempDir()
	var suites []string
	for _, name := range []string{"a.yml", "b.yml"} {
		// Each suite's messages are its own: the result cache shares
		// identical calls to identical servers across suites, and which
		// suite's call hits depends on what ran together.
		var b strings.Builder
		fmt.Fprintf(&b, "servers:\n  demo:\n    command: [%q]\ntools:\n", filepath.Join(binDir, "mcptest-demo-server"))
		for i := range 6 {
			fmt.Fprintf(&b, "  - name: %s test %d\n    server: demo\n    tool: echo\n    args: {message: \"%s m%d\"}\n    expect:\n      - {target: \"result.content[0].text\", matcher: {exact: \"%s m%d\"}}\n", name, i, name, i, name, i)
		}
		b.WriteString("compliance:\n  - {name: prompt errors, server: demo, check: P01}\n")
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		suites = append(suites, p)
	}
	full := filepath.Join(dir, "full.json")
	if r := mcptest(t, append([]string{"run", "--run-id", "ci-7", "--reporter", "json=" + full}, suites...)...); r.code != 0 {
		t.Fatalf("run:\n%s", r)
	}
	m := normalize(t, full)
	var names []string
	for _, s := range asList(m["servers"]) {
		srv := s.(map[string]any)
		names = append(names, fmt.Sprint(srv["name"], "@", filepath.Base(fmt.Sprint(srv["suite"]))))
	}
	if strings.Join(names, ",") != "demo@a.yml,demo@b.yml" {
		t.Errorf("servers %v, want demo once per suite", names)
	}
	pretty := mcptest(t, "report", "--format", "md", full)
	if !strings.Contains(pretty.stdout, "passed with warnings") {
		t.Errorf("markdown of the run:\n%s", pretty.stdout)
	}

	var shards []string
	for i := 1; i <= 2; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if r := mcptest(t, append([]string{"run", "--run-id", "ci-7", "--shard", fmt.Sprintf("%d/2", i), "--reporter", "json=" + p}, suites...)...); r.code != 0 {
			t.Fatalf("shard %d:\n%s", i, r)
		}
		shards = append(shards, p)
	}
	merged := filepath.Join(dir, "merged.json")
	if r := mcptest(t, append([]string{"report", "merge", "--exit-code", "-o", merged}, shards...)...); r.code != 0 {
		t.Fatalf("merge:\n%s", r)
	}
	want, got := normalize(t, full), normalize(t, merged)
	if !reflect.DeepEqual(want, got) {
		wb, _ := json.MarshalIndent(want, "", " ")
		gb, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("merged shards differ from the unsharded run\nwant:\n%s\ngot:\n%s", wb, gb)
	}
}

// TestReportExitCodeFlags: `report --exit-code` and `report merge
// --exit-code` exit with the run's code once the output is written;
// without the flag they exit 0.
func TestReportExitCodeFlags(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "run.json")
	// A one-shard run: report merge takes only the reports of --shard runs.
	if r := mcptest(t, "run", "--shard", "1/1", "--run-id", "x", "--reporter", "json="+saved, writeSuite(t, mixedSuite)); r.code != 1 {
		t.Fatalf("run:\n%s", r)
	}
	if r := mcptest(t, "report", "--format", "tap", saved); r.code != 0 {
		t.Errorf("report without --exit-code: exit %d", r.code)
	}
	md := filepath.Join(dir, "run.md")
	if r := mcptest(t, "report", "--exit-code", "--format", "md="+md, saved); r.code != 1 {
		t.Errorf("report --exit-code: exit %d, want the run's 1\n%s", r.code, r)
	}
	if _, err := os.Stat(md); err != nil {
		t.Errorf("the report was not written before exiting: %v", err)
	}
	if r := mcptest(t, "report", "merge", "--exit-code", "-o", filepath.Join(dir, "m.json"), saved); r.code != 1 {
		t.Errorf("report merge --exit-code: exit %d\n%s", r.code, r)
	}
	if r := mcptest(t, "report", "merge", "-o", filepath.Join(dir, "m2.json"), saved); r.code != 0 {
		t.Errorf("report merge: exit %d", r.code)
	}
}
