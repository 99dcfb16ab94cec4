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

func TestReportReRendersASavedRun(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "run.json")
	suite := writeSuite(t, mixedSuite)
	r := mcptest(t, "run", "--reporter", "json="+saved, "--reporter", "pretty", suite)
	if r.code != 1 {
		t.Fatalf("run:\n%s", r)
	}
	// The pretty rendering of the saved run matches the live one, and no
	// server is started to produce it.
	again := mcptest(t, "report", saved)
	if again.code != 0 {
		t.Fatalf("report:\n%s", again)
	}
	for _, line := range []string{"fails with a diff", "echo should say goodbye", "1 passed, 2 failed"} {
		mustContain(t, "re-rendered pretty", again.stdout, line)
	}
	// Re-rendering as json reproduces the saved file byte for byte.
	copyPath := filepath.Join(dir, "copy.json")
	if r := mcptest(t, "report", "--format", "json", "-o", copyPath, saved); r.code != 0 {
		t.Fatalf("report --format json:\n%s", r)
	}
	a, _ := os.ReadFile(saved)
	b, _ := os.ReadFile(copyPath)
	if string(a) != string(b) {
		t.Errorf("json re-render differs from the saved report")
	}
	// An unknown format names the option the user typed.
	if r := mcptest(t, "report", "--format", "csv", saved); r.code != 2 || !strings.Contains(r.stderr, "--format") || strings.Contains(r.stderr, "--reporter") {
		t.Errorf("report --format csv:\n%s", r)
	}
	// A file that is not a report is refused clearly.
	bogus := filepath.Join(dir, "bogus.json")
	os.WriteFile(bogus, []byte(`{"schema_version":"9"}`), 0o644)
	if r := mcptest(t, "report", bogus); r.code != 2 || !strings.Contains(r.stderr, `schema_version "9"`) {
		t.Errorf("bogus report:\n%s", r)
	}
}

// normalize removes what legitimately differs between two runs of the
// same tests: times, durations, the frames' offsets and the JSON-RPC ids
// (which count the session's calls, in whatever order they ran).
func normalize(t *testing.T, path string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"started_at", "finished_at", "duration_ms"} {
		delete(m, k)
	}
	delete(m["summary"].(map[string]any), "duration_ms")
	for _, tt := range m["tests"].([]any) {
		test := tt.(map[string]any)
		delete(test, "duration_ms")
		for _, fr := range asList(test["frames"]) {
			frame := fr.(map[string]any)
			delete(frame, "at_ms")
			if data, ok := frame["data"].(map[string]any); ok {
				delete(data, "id")
			}
		}
	}
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestShardsMergeIntoTheUnshardedReport(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\ntools:\n")
	for i := range 24 {
		expect := fmt.Sprintf("m%d", i)
		if i%7 == 3 {
			expect = "wrong"
		}
		fmt.Fprintf(&b, "  - name: test %d\n    server: demo\n    tool: echo\n    args: {message: \"m%d\"}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: %q}\n", i, i, expect)
	}
	suite := writeSuite(t, b.String())
	dir := t.TempDir()
	full := filepath.Join(dir, "full.json")
	mcptest(t, "run", "--run-id", "ci-42", "-o", full, "--reporter", "json", suite)
	var shards []string
	total := 0
	for i := 1; i <= 4; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		r := mcptest(t, "run", "--run-id", "ci-42", "--shard", fmt.Sprintf("%d/4", i), "--reporter", "json="+p, suite)
		if r.code > 1 {
			t.Fatalf("shard %d:\n%s", i, r)
		}
		m := normalize(t, p)
		n := len(asList(m["tests"]))
		if n == 0 || n == 24 {
			t.Errorf("shard %d holds %d of 24 tests; the hash does not spread them", i, n)
		}
		if s := m["shard"].(map[string]any); s["index"] != float64(i) || s["total"] != float64(4) {
			t.Errorf("shard %d records %v", i, s)
		}
		total += n
		shards = append(shards, p)
	}
	if total != 24 {
		t.Fatalf("shards hold %d tests in all, want 24", total)
	}
	merged := filepath.Join(dir, "merged.json")
	if r := mcptest(t, append([]string{"report", "merge", "-o", merged}, shards...)...); r.code != 0 {
		t.Fatalf("merge:\n%s", r)
	}
	want, got := normalize(t, full), normalize(t, merged)
	if !reflect.DeepEqual(want, got) {
		wb, _ := json.MarshalIndent(want, "", " ")
		gb, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("merged shards differ from the unsharded run\nwant:\n%s\ngot:\n%s", wb, gb)
	}
	// Merging a shard with itself is refused.
	if r := mcptest(t, "report", "merge", shards[0], shards[0]); r.code != 2 || !strings.Contains(r.stderr, "shard 1/4 is given twice") {
		t.Errorf("duplicate merge:\n%s", r)
	}
	checkShardIntegrity(t, suite, dir, shards)
}

// checkShardIntegrity merges shards that do not make one run: a missing
// shard, a shard of another run, a shard of another split. Each exits 2
// naming the problem; --allow-partial merges the missing-shard case into a
// report marked partial, which the markdown and badge reporters show.
func checkShardIntegrity(t *testing.T, suite, dir string, shards []string) {
	t.Helper()
	r := mcptest(t, "report", "merge", shards[0], shards[2], shards[3])
	if r.code != 2 {
		t.Fatalf("merge without shard 2:\n%s", r)
	}
	mustContain(t, "missing shard", r.stderr, `shard 2 of 4 is missing`, `run "ci-42"`, "--allow-partial")

	partial := filepath.Join(dir, "partial.json")
	r = mcptest(t, "report", "merge", "--allow-partial", "-o", partial, shards[0], shards[2], shards[3])
	if r.code != 0 {
		t.Fatalf("merge --allow-partial:\n%s", r)
	}
	mustContain(t, "merge --allow-partial", r.stderr, "partial: shard 2 of 4 missing")
	m := normalize(t, partial)
	if p, ok := m["partial"].(map[string]any); !ok || !reflect.DeepEqual(p["missing_shards"], []any{float64(2)}) || p["shard_total"] != float64(4) {
		t.Errorf("partial = %#v", m["partial"])
	}
	// The saved partial report passes the schema check of `report` and
	// says what it lacks.
	r = mcptest(t, "report", "--format", "markdown", "--format", "badge="+filepath.Join(dir, "badge.json"), partial)
	if r.code != 0 {
		t.Fatalf("report of the partial merge:\n%s", r)
	}
	mustContain(t, "markdown", r.stdout, "partial: shard 2 of 4 missing")
	mustContain(t, "badge", readFile(t, filepath.Join(dir, "badge.json")), "partial: shard 2 of 4 missing")

	other := filepath.Join(dir, "other-run.json")
	if r := mcptest(t, "run", "--run-id", "ci-43", "--shard", "2/4", "--reporter", "json="+other, suite); r.code > 1 {
		t.Fatalf("shard of another run:\n%s", r)
	}
	r = mcptest(t, "report", "merge", shards[0], other, shards[2], shards[3])
	if r.code != 2 {
		t.Fatalf("merge of two runs:\n%s", r)
	}
	mustContain(t, "two run ids", r.stderr, `"ci-42" (`+shards[0], `"ci-43" (`+other, "--run-id")

	split := filepath.Join(dir, "of-three.json")
	if r := mcptest(t, "run", "--run-id", "ci-42", "--shard", "2/3", "--reporter", "json="+split, suite); r.code > 1 {
		t.Fatalf("shard of another split:\n%s", r)
	}
	r = mcptest(t, "report", "merge", "--allow-partial", shards[0], split, shards[2], shards[3])
	if r.code != 2 {
		t.Fatalf("merge of two shard counts:\n%s", r)
	}
	mustContain(t, "two counts", r.stderr, "different shard count values: 4 (", "3 ("+split)
}
